import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// What a process has used, read from Linux's /proc as `ps` and `top` do: from outside, so the
// server measured runs unchanged, and over all its threads (the event loop, the garbage
// collector, libuv's pool, any worker such as a database's).

/** Clock ticks of user and system time, from the text of /proc/<pid>/stat. */
export function cpuTicks(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  // Then: state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** A process's parent and command name, from the text of /proc/<pid>/stat. */
export function parentAndName(stat: string): { ppid: number; name: string } {
  const close = stat.lastIndexOf(')');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    ppid: Number(stat.slice(close + 2).split(' ')[1]),
  };
}

/**
 * The clock ticks of the processes named `name` among `root`'s descendants, from the text of
 * /proc/<pid>/stat of every process, by pid.
 */
export function descendantTicks(stats: Map<number, string>, root: number, name: string): number {
  const children = new Map<number, { pid: number; name: string; stat: string }[]>();
  for (const [pid, stat] of stats) {
    const child = { pid, stat, ...parentAndName(stat) };
    const siblings = children.get(child.ppid);
    if (siblings) siblings.push(child);
    else children.set(child.ppid, [child]);
  }
  let ticks = 0;
  const pending = [...(children.get(root) ?? [])];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.name === name) ticks += cpuTicks(next.stat);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return ticks;
}

/** Resident memory in KiB, from the text of /proc/<pid>/status. */
export function residentKiB(status: string): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS line: the process has exited');
  return Number(match[1]);
}

let ticksPerSecond: number | undefined;

/** CPU time the process `pid` has used so far, in milliseconds (10 ms steps on most Linux). */
export function cpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return (cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / ticksPerSecond;
}

export function residentMiB(pid: number): number {
  return residentKiB(readFileSync(`/proc/${pid}/status`, 'utf8')) / 1024;
}
