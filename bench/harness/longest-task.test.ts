import { describe, expect, it } from 'vitest';
import { longestMainThreadTask, type TraceEvent } from './longest-task';

const ORIGIN = 'http://127.0.0.1:3000';

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
/** A script of `url` evaluated on the thread. */
const script = (pid: number, tid: number, url: string): TraceEvent => ({
  name: 'EvaluateScript',
  ph: 'X',
  pid,
  tid,
  args: { data: { url } },
});

describe('longestMainThreadTask', () => {
  it("gives the longest task's CPU of the page's renderer main thread that ran the most", () => {
    const events = [
      thread(1, 10, 'CrRendererMain'),
      thread(2, 20, 'CrRendererMain'),
      thread(2, 21, 'Compositor'),
      // A first renderer that ran little, with one long task.
      task(1, 10, 30),
      script(1, 10, `${ORIGIN}/_next/static/chunks/a.js`),
      // The page's: more in all, its longest 12 ms.
      task(2, 20, 12),
      task(2, 20, 11),
      task(2, 20, 10),
      script(2, 20, `${ORIGIN}/_next/static/chunks/a.js`),
      // Another thread of the page's process, and an event that is not a task.
      task(2, 21, 90),
      { name: 'Layout', ph: 'X', pid: 2, tid: 20, tdur: 80_000 },
    ];
    expect(longestMainThreadTask(events, ORIGIN)).toBe(12);
  });

  it("passes over a renderer of Chromium's own pages, however much it ran", () => {
    const events = [
      thread(1, 10, 'CrRendererMain'),
      thread(2, 20, 'CrRendererMain'),
      // The omnibox popup's renderer, busier than the page.
      task(1, 10, 140),
      task(1, 10, 90),
      script(1, 10, 'chrome://omnibox-popup.top-chrome/omnibox_popup.js'),
      task(2, 20, 40),
      script(2, 20, `${ORIGIN}/_next/static/chunks/a.js`),
      // Another origin that begins like the page's is not the page's.
      thread(3, 30, 'CrRendererMain'),
      task(3, 30, 300),
      script(3, 30, `${ORIGIN}0/a.js`),
    ];
    expect(longestMainThreadTask(events, ORIGIN)).toBe(40);
  });

  it('gives nothing for a trace with no task of the page on a main thread', () => {
    expect(
      longestMainThreadTask(
        [
          thread(2, 20, 'CrRendererMain'),
          task(2, 21, 5),
          script(2, 21, `${ORIGIN}/a.js`),
          thread(3, 30, 'CrRendererMain'),
          task(3, 30, 5),
        ],
        ORIGIN,
      ),
    ).toBe(undefined);
  });
});
