// First-load JavaScript of the home page and of a chat page: every script the HTML names,
// fetched and summed, raw and gzipped (what a browser downloads on a cold visit).
// Run against a built app: npx next build && npx next start -p 3100 &
//   node bench/first-load-js.mjs http://127.0.0.1:3100
import { gzipSync } from 'node:zlib';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';

async function cookieAndSession() {
  const home = await fetch(base);
  const cookie = home.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const created = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!created.ok) throw new Error(`creating a session: ${created.status}`);
  const { session } = await created.json();
  return { cookie, sessionId: session.id };
}

async function scriptsOf(path, cookie) {
  const html = await (await fetch(`${base}${path}`, { headers: { cookie } })).text();
  const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(sources)];
}

async function measure(path, cookie) {
  let raw = 0;
  let gzip = 0;
  const scripts = await scriptsOf(path, cookie);
  for (const src of scripts) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { scripts: scripts.length, raw, gzip };
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const { cookie, sessionId } = await cookieAndSession();
for (const [name, path] of [
  ['home', '/'],
  ['chat', `/c/${sessionId}`],
]) {
  const { scripts, raw, gzip } = await measure(path, cookie);
  console.log(`${name.padEnd(5)} ${scripts} scripts  ${kib(raw)} raw  ${kib(gzip)} gzip`);
}
