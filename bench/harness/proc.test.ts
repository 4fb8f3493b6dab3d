import { describe, expect, it } from 'vitest';
import { cpuTicks, parentAndName, residentKiB } from './proc';

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

describe('residentKiB', () => {
  it('reads VmRSS', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmRSS:\t  204800 kB\nThreads:\t11\n';
    expect(residentKiB(status)).toBe(204800);
  });

  it('refuses a status without it (a process that has exited)', () => {
    expect(() => residentKiB('Name:\tnode\nState:\tZ (zombie)\n')).toThrow(/VmRSS/);
  });
});
