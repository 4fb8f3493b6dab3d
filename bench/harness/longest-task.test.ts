import { describe, expect, it } from 'vitest';
import { longestMainThreadTask, type TraceEvent } from './longest-task';

const thread = (pid: number, tid: number, name: string): TraceEvent => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  args: { name },
});
const task = (pid: number, tid: number, cpuMs: number): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  pid,
  tid,
  tdur: cpuMs * 1000,
});

describe('longestMainThreadTask', () => {
  it("gives the longest task's CPU of the renderer main thread that ran the most", () => {
    const events = [
      thread(1, 10, 'CrRendererMain'),
      thread(2, 20, 'CrRendererMain'),
      thread(2, 21, 'Compositor'),
      // A first renderer that ran little, with one long task.
      task(1, 10, 30),
      // The page's: more in all, its longest 12 ms.
      task(2, 20, 12),
      task(2, 20, 11),
      task(2, 20, 10),
      // Another thread of the page's process, and an event that is not a task.
      task(2, 21, 90),
      { name: 'Layout', ph: 'X', pid: 2, tid: 20, tdur: 80_000 },
    ];
    expect(longestMainThreadTask(events)).toBe(12);
  });

  it('gives nothing for a trace with no task of a main thread', () => {
    expect(longestMainThreadTask([thread(2, 20, 'CrRendererMain'), task(2, 21, 5)])).toBe(
      undefined,
    );
  });
});
