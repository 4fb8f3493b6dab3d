import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** The tokens every scripted model call reports: 10 in, 5 out. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The last part of a scripted model call: it stopped, or it called tools. */
export const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV3StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: undefined },
  usage,
});
