import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { subscribe } from '@/lib/events/session-events';
import { finish } from './model-parts';

/** A model whose answer takes 2.5 s, a word every 50 ms, and its words. */
export function slowAnswer() {
  const words = Array.from({ length: 50 }, (_, index) => `w${index} `);
  const chunks: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...words.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    finish('stop'),
  ];
  const model = new MockLanguageModelV3({
    doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: 50 }) }),
  });
  return { words, model };
}

/** Resolves once the session's running turn has ended and its answer is stored. */
export const turnEnded = (id: string) =>
  new Promise<void>((resolve) => {
    const unsubscribe = subscribe(id, (event) => {
      if (event.type === 'turn' && event.status === 'ended') {
        unsubscribe();
        resolve();
      }
    });
  });
