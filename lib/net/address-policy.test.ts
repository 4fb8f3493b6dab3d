import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressRange, allowedByDefault, refusalReason } from './address-policy';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('addressRange', () => {
  it('names the special-purpose range of addresses that are not public', () => {
    for (const [address, range] of [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['100.127.255.255', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'reserved'],
      ['198.51.100.1', 'reserved'],
      ['203.0.113.1', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['192.88.99.1', 'reserved'],
      ['192.175.48.1', 'as112'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456:789a::1', 'uniqueLocal'],
      ['fe80::1', 'linkLocal'],
      ['FE80::abcd', 'linkLocal'],
      ['febf:ffff::1', 'linkLocal'],
      ['fec0::1', 'deprecatedSiteLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:0:7f00:1', 'rfc6145'],
      ['::ffff:0:808:808', 'rfc6145'],
      ['100::1', 'discard'],
      ['2001::1', 'teredo'],
      ['2001:0:4136:e378::1', 'teredo'],
      ['2001:db8::1', 'reserved'],
      ['2001:2::1', 'benchmarking'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['64:ff9b:1::7f00:1', 'rfc6052'],
      ['2002:a00:1::1', '6to4'],
      // Outside 2000::/3, IPv6's global unicast: IPv4-compatible (::/96) and unassigned space.
      ['::7f00:1', 'reserved'],
      ['::808:808', 'reserved'],
      ['fbff::1', 'reserved'],
      ['4000::1', 'reserved'],
      // IPv4-mapped addresses are judged by their IPv4 address, however they are written.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['::ffff:192.168.1.1', 'private'],
      ['::ffff:100.64.0.1', 'carrierGradeNat'],
      ['::ffff:192.0.2.1', 'reserved'],
      ['::127.0.0.1', 'loopback'],
      // Only strict IP addresses: these short and octal forms are not.
      ['127.1', 'invalid'],
      ['0177.0.0.1', 'invalid'],
      ['not an address', 'invalid'],
      ['', 'invalid'],
    ] as const) {
      expect(addressRange(address), address).toBe(range);
      expect(allowedByDefault(address), address).toBe(false);
    }
  });

  it('calls public addresses unicast, also just outside each refused range', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.215.14',
      '9.255.255.255',
      '11.0.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '192.0.3.0',
      '198.51.99.255',
      '203.0.114.0',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2001:200::1',
      '2003::1',
      '::ffff:8.8.8.8',
    ]) {
      expect(addressRange(address), address).toBe('unicast');
      expect(allowedByDefault(address), address).toBe(true);
    }
  });

  it('opens loopback and private ranges with QUANTA_FETCH_ALLOW_PRIVATE=1, read at each call', () => {
    const opened = ['127.0.0.1', '::1', '10.0.0.1', '192.168.1.1', 'fd00::1', '100.64.0.1'];
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', undefined);
    for (const address of opened) expect(allowedByDefault(address), address).toBe(false);
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', 'true');
    expect(allowedByDefault('127.0.0.1')).toBe(false);
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', '1');
    for (const address of opened) expect(allowedByDefault(address), address).toBe(true);
    expect(allowedByDefault('::ffff:127.0.0.1')).toBe(true);
    expect(allowedByDefault('8.8.8.8')).toBe(true);
    // Never a server of the operator's: cloud metadata, documentation, tunnels, multicast...
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::',
      '192.0.2.1',
      '::ffff:0:7f00:1',
      '2001::1',
      '100::1',
      '2002:7f00:1::1',
      '64:ff9b::7f00:1',
      '224.0.0.1',
      'not an address',
    ]) {
      expect(allowedByDefault(address), address).toBe(false);
    }
  });
});

describe('refusalReason', () => {
  it('names the address, and the name that resolved to it', () => {
    expect(refusalReason('169.254.169.254', '169.254.169.254')).toBe(
      'refused: 169.254.169.254 is not a public address (linkLocal)',
    );
    expect(refusalReason('metadata.test', 'fe80::1')).toBe(
      'refused: metadata.test resolves to fe80::1, which is not a public address (linkLocal)',
    );
  });

  it('names QUANTA_FETCH_ALLOW_PRIVATE only for the ranges it opens', () => {
    const unless =
      ' (the server allows loopback and private addresses only with QUANTA_FETCH_ALLOW_PRIVATE=1)';
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', 'fd00::1', '100.64.0.1']) {
      expect(refusalReason(address, address), address).toBe(
        `refused: ${address} is not a public address (${addressRange(address)})${unless}`,
      );
    }
    for (const address of ['169.254.169.254', '0.0.0.0', '192.0.2.1', '2001::1', '8.8.8.8']) {
      expect(refusalReason(address, address).endsWith(unless), address).toBe(false);
    }
  });
});
