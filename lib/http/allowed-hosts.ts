import ipaddr from 'ipaddr.js';
import type { Env } from '../config';
import { errorResponse } from './errors';

/** A host name or IP literal (IPv6 in brackets), and its port when only that one is allowed. */
export type HostRule = { hostname: string; port?: string };

const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::([0-9]{1,5}))?$/;

/** `name`, `name:port`, `[v6]` or `[v6]:port`, lower-cased and canonical; else undefined. */
export function parseHost(value: string): HostRule | undefined {
  const match = HOST_PATTERN.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  let hostname = match[1] as string;
  if (hostname.startsWith('[')) {
    const address = hostname.slice(1, -1);
    if (!ipaddr.IPv6.isValid(address)) return undefined;
    hostname = `[${ipaddr.IPv6.parse(address).toString()}]`;
  }
  return match[2] === undefined ? { hostname } : { hostname, port: match[2] };
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
// Vercel's own names for a deployment, its branch and its production domain.
const VERCEL_HOSTS = ['VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL'];

/**
 * The names this server answers to: QUANTA_ALLOWED_HOSTS (else this machine's loopback names,
 * any port), plus the host of QUANTA_PUBLIC_URL and Vercel's names for the deployment. A
 * malformed setting is refused rather than guessed at.
 */
export function allowedHosts(env: Env = process.env): HostRule[] {
  const configured = (env.QUANTA_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const rules = (configured.length > 0 ? configured : LOCAL_HOSTS).map((name) => {
    const rule = parseHost(name);
    if (!rule) {
      throw new Error(`QUANTA_ALLOWED_HOSTS: "${name}" is not a host name with an optional port.`);
    }
    return rule;
  });
  if (env.QUANTA_PUBLIC_URL) rules.push({ hostname: publicHostname(env.QUANTA_PUBLIC_URL) });
  for (const name of VERCEL_HOSTS) {
    const value = env[name];
    const rule = value ? parseHost(value) : undefined;
    if (rule) rules.push({ hostname: rule.hostname });
  }
  return rules;
}

function publicHostname(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(`QUANTA_PUBLIC_URL: "${value}" is not an http(s) URL.`);
  }
  return url.hostname;
}

export function isAllowedHost(value: string, rules: HostRule[]): boolean {
  const host = parseHost(value);
  return (
    host !== undefined &&
    rules.some(
      (rule) =>
        rule.hostname === host.hostname && (rule.port === undefined || rule.port === host.port),
    )
  );
}

/** The host a client asked for: the first proxy's `X-Forwarded-Host`, else `Host`. */
export function requestHost(headers: Headers): string | null {
  return forwardedHost(headers) ?? headers.get('host');
}

function forwardedHost(headers: Headers): string | undefined {
  return headers.get('x-forwarded-host')?.split(',')[0]?.trim();
}

/**
 * A request addressed to a name this server does not answer to — in `Host`, or in
 * `X-Forwarded-Host` when a proxy set one — is refused with 421 (JSON under /api, a line of
 * text for a page). This stops DNS rebinding: a foreign site whose name was made to point here
 * still sends its own name.
 */
export function refuseHost(
  headers: Headers,
  api: boolean,
  rules: HostRule[],
): Response | undefined {
  const forwarded = forwardedHost(headers);
  const names = [headers.get('host') ?? '', ...(forwarded === undefined ? [] : [forwarded])];
  const refused = names.find((name) => !isAllowedHost(name, rules));
  if (refused === undefined) return undefined;
  const message = `This server does not answer to ${JSON.stringify(refused)}: its operator can allow the name in QUANTA_ALLOWED_HOSTS.`;
  return api
    ? errorResponse(421, 'host_not_allowed', message)
    : new Response(`${message}\n`, {
        status: 421,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
}
