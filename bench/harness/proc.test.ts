import { describe, expect, it } from 'vitest';
import { cpuTicks, descendantTicks, parentAndName, residentKiB } from './proc';

describe('cpuTicks', () => {
  it('adds user and system time, after a command name with spaces and parentheses', () => {
    const stat =
      '4242 (next-server (v16)) S 1 4242 4242 0 -1 4194560 9000 0 12 0 731 169 0 0 20 0 11 0 3000';
    expect(cpuTicks(stat)).toBe(731 + 169);
  });
});

describe('parentAndName', () => {
  it('reads the parent after a command name with spaces and parentheses', () => {
    const stat =
      '4243 (a (b) c) S 4242 4242 4242 0 -1 4194560 9000 0 12 0 731 169 0 0 20 0 11 0 3000';
    expect(parentAndName(stat)).toEqual({ ppid: 4242, name: 'a (b) c' });
  });
});

describe('descendantTicks', () => {
  /** A stat text of `pid`, child of `ppid`, named `name`, with `ticks` of user time. */
  const stat = (pid: number, name: string, ppid: number, ticks: number) =>
    `${pid} (${name}) S ${ppid} ${pid} ${pid} 0 -1 4194560 0 0 0 0 ${ticks} 0 0 0 20 0 1 0 3000`;

  it("adds the ticks of the root's descendants of that name, however deep", () => {
    const stats = new Map([
      [10, stat(10, 'node', 1, 500)],
      [11, stat(11, 'chromium', 10, 30)],
      [12, stat(12, 'chromium', 11, 20)],
      // A child of another name, and a chromium below it.
      [13, stat(13, 'next-server (v16)', 10, 400)],
      [14, stat(14, 'chromium', 13, 7)],
      // Another tree's chromium.
      [20, stat(20, 'chromium', 1, 1000)],
    ]);
    expect(descendantTicks(stats, 10, 'chromium')).toBe(30 + 20 + 7);
  });

  it('gives 0 for a root without descendants', () => {
    expect(descendantTicks(new Map([[10, stat(10, 'node', 1, 5)]]), 10, 'chromium')).toBe(0);
  });
});

describe('residentKiB', () => {
  it('reads VmRSS', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmRSS:\t  204800 kB\nThreads:\t11\n';
    expect(residentKiB(status)).toBe(204800);
  });

  it('refuses a status without it (a process that has exited)', () => {
    expect(() => residentKiB('Name:\tnode\nState:\tZ (zombie)\n')).toThrow(/VmRSS/);
  });
});
