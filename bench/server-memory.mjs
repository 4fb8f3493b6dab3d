// Resident memory of `next start` when idle, after one page view, with an embedded PGlite.
// Run after `npx next build`: node bench/server-memory.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = 3199;
const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
const server = spawn('npx', ['next', 'start', '-p', String(port)], {
  env: { ...process.env, QUANTA_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' },
  stdio: 'ignore',
  detached: true,
});

function rssOfTree(rootPid) {
  // npx → next → node server: sum the whole process group.
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after the command name, which may itself hold spaces: state ppid pgrp ...
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== rootPid) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(rss?.[1] ?? 0);
    } catch {}
  }
  return total;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (let i = 0; i < 120; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
  } catch {}
  await sleep(500);
}
await sleep(3000);
const samples = [];
for (let i = 0; i < 5; i++) {
  samples.push(rssOfTree(server.pid));
  await sleep(500);
}
samples.sort((a, b) => a - b);
console.log(
  `idle RSS of next start + PGlite: median ${(samples[2] / 1024).toFixed(1)} MiB (5 samples)`,
);
process.kill(-server.pid, 'SIGTERM');
