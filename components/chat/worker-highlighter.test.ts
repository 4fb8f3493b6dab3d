import type { HighlightOptions } from 'streamdown';
import { afterEach, expect, it, vi } from 'vitest';
import {
  type HighlightReply,
  type HighlightRequest,
  workerHighlighter,
} from './worker-highlighter';

/** Stands in for the highlighter's worker: keeps what it is sent, replies when told. */
class FakeWorker {
  static last: FakeWorker;
  sent: HighlightRequest[] = [];
  onmessage: ((event: { data: HighlightReply }) => void) | null = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(request: HighlightRequest) {
    this.sent.push(request);
  }
  reply(data: HighlightReply) {
    this.onmessage?.({ data });
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const options: HighlightOptions = {
  code: 'const a = 1;',
  language: 'ts',
  themes: ['github-light-default', 'github-dark-default'],
};
const tokens = (content: string) => ({ tokens: [[{ content, color: '#cf222e' }]] });

it('sends each block to the worker and gives each its own tokens when they come back', () => {
  vi.stubGlobal('Worker', FakeWorker);
  const highlighter = workerHighlighter();
  const first = vi.fn();
  const second = vi.fn();
  expect(highlighter.highlight({ ...options }, first)).toBeNull();
  expect(highlighter.highlight({ ...options, code: 'let b;' }, second)).toBeNull();
  const [one, two] = FakeWorker.last.sent;
  expect(one?.options.code).toBe('const a = 1;');
  expect(two?.options.code).toBe('let b;');

  FakeWorker.last.reply({ id: two?.id ?? -1, result: tokens('let b;') });
  FakeWorker.last.reply({ id: one?.id ?? -1, result: tokens('const a = 1;') });
  expect(first).toHaveBeenCalledExactlyOnceWith(tokens('const a = 1;'));
  expect(second).toHaveBeenCalledExactlyOnceWith(tokens('let b;'));
});

it('gives a block it has highlighted at once, without asking the worker again', () => {
  vi.stubGlobal('Worker', FakeWorker);
  const highlighter = workerHighlighter();
  expect(highlighter.highlight({ ...options }, vi.fn())).toBeNull();
  const [request] = FakeWorker.last.sent;
  FakeWorker.last.reply({ id: request?.id ?? -1, result: tokens('const a = 1;') });
  // The row rendered again (scrolled back into view): its tokens, with no round trip.
  const again = vi.fn();
  expect(highlighter.highlight({ ...options }, again)).toEqual(tokens('const a = 1;'));
  expect(again).not.toHaveBeenCalled();
  expect(FakeWorker.last.sent).toHaveLength(1);
  // Other code, or the same in another language, is asked for.
  expect(highlighter.highlight({ ...options, language: 'js' }, vi.fn())).toBeNull();
  expect(FakeWorker.last.sent).toHaveLength(2);
});
