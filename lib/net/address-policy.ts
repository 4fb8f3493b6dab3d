import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Whether a connection to this IP address (without brackets) may be made. */
export type AddressPolicy = (address: string) => boolean;

const ALLOW_PRIVATE = 'QUANTA_FETCH_ALLOW_PRIVATE';

// IPv6 global unicast (RFC 4291): ipaddr.js calls everything outside its special ranges
// 'unicast', including space the IETF reserves, like the deprecated IPv4-compatible ::/96.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The ranges QUANTA_FETCH_ALLOW_PRIVATE=1 opens: this machine and its private networks. */
const PRIVATE_RANGES: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
]);

/**
 * The ipaddr.js range of `address` (an IP address without brackets): 'unicast' for a public
 * address, else the special-purpose range it is in ('loopback', 'private', 'linkLocal',
 * 'reserved', 'teredo', ...). IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged by their
 * IPv4 address, as that is where a connection to them goes. Anything that is not an IP address
 * is 'invalid'.
 */
export function addressRange(address: string): string {
  // isIP is strict (no octal, hex or short IPv4 forms); ipaddr.js would read those too.
  if (isIP(address) === 0) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range();
  const range = ipv6.range();
  return range === 'unicast' && !ipv6.match(GLOBAL_UNICAST_V6) ? 'reserved' : range;
}

/**
 * The default policy, read at each call so that the variable can change while the server runs:
 * public addresses, and with QUANTA_FETCH_ALLOW_PRIVATE=1 loopback and private ones too.
 */
export function allowedByDefault(address: string): boolean {
  const range = addressRange(address);
  return range === 'unicast' || (process.env[ALLOW_PRIVATE] === '1' && PRIVATE_RANGES.has(range));
}

/**
 * Why a connection to `address` was refused, `host` being what resolved to it (or the address
 * itself). The switch that would open the address is named only where it would.
 */
export function refusalReason(host: string, address: string): string {
  const what = host === address ? address : `${host} resolves to ${address}, which`;
  const range = addressRange(address);
  const unless = PRIVATE_RANGES.has(range)
    ? ` (the server allows loopback and private addresses only with ${ALLOW_PRIVATE}=1)`
    : '';
  return `refused: ${what} is not a public address (${range})${unless}`;
}
