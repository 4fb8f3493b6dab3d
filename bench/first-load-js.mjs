// First-load JavaScript per route: every script the HTML names (but `nomodule` ones, which a
// browser with modules never fetches), fetched and summed, raw and gzipped: what a browser
// downloads on a cold visit before the page runs. Scripts a page imports later (the markdown
// renderer when an answer shows, the highlighter when it has code) are not counted.
// Run against a built app: npx next build && npx next start -p 3100 &
//   node bench/first-load-js.mjs http://127.0.0.1:3100
import { gzipSync } from 'node:zlib';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';

async function cookieOf() {
  const home = await fetch(base);
  return home.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

async function post(path, cookie, body) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status}`);
  return response;
}

async function newSession(cookie) {
  const { session } = await (await post('/api/sessions', cookie, {})).json();
  return session.id;
}

/** A session with one question and the demo model's answer (markdown), read to its end. */
async function answeredSession(cookie) {
  const id = await newSession(cookie);
  const message = { role: 'user', parts: [{ type: 'text', text: 'Hello' }] };
  await (await post(`/api/sessions/${id}/messages`, cookie, { message })).text();
  return id;
}

async function scriptsOf(path, cookie) {
  const html = await (await fetch(`${base}${path}`, { headers: { cookie } })).text();
  const sources = [...html.matchAll(/<script\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => !/\snomodule\b/i.test(tag))
    .map((tag) => tag.match(/\ssrc="([^"]+)"/)?.[1])
    .filter(Boolean);
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
const cookie = await cookieOf();
for (const [name, path] of [
  ['home', '/'],
  ['chat, empty', `/c/${await newSession(cookie)}`],
  ['chat, answered', `/c/${await answeredSession(cookie)}`],
]) {
  const { scripts, raw, gzip } = await measure(path, cookie);
  console.log(`${name.padEnd(15)} ${scripts} scripts  ${kib(raw)} raw  ${kib(gzip)} gzip`);
}
