import type { LanguageModelUsage } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prices, tokenUsage } from './usage';

const table = (value: unknown) => ({ QUANTA_MODEL_PRICES: JSON.stringify(value) });

function usage(
  inputTokens: number | undefined,
  outputTokens: number | undefined,
): LanguageModelUsage {
  return {
    inputTokens,
    outputTokens,
    totalTokens: (inputTokens ?? 0) + (outputTokens ?? 0),
    inputTokenDetails: {
      noCacheTokens: undefined,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
    },
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  };
}

describe('prices', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is empty when QUANTA_MODEL_PRICES is unset or empty', () => {
    expect(prices({})).toEqual({});
    expect(prices({ QUANTA_MODEL_PRICES: '' })).toEqual({});
  });

  it('parses a valid table', () => {
    const value = {
      'openai:gpt-5': { input: 1.25, output: 10 },
      'local:llama3.2': { input: 0, output: 0 },
    };
    expect(prices(table(value))).toEqual(value);
  });

  it('parses a table once and returns the same object for the same text', () => {
    const env = table({ 'anthropic:claude-haiku-4-5': { input: 1, output: 5 } });
    expect(prices({ ...env })).toBe(prices({ ...env }));
  });

  it('reads process.env by default', () => {
    vi.stubEnv('QUANTA_MODEL_PRICES', '{"google:gemini-2.5-pro":{"input":2,"output":3}}');
    expect(prices()).toEqual({ 'google:gemini-2.5-pro': { input: 2, output: 3 } });
  });

  it('rejects text that is not JSON', () => {
    expect(() => prices({ QUANTA_MODEL_PRICES: "{'openai:gpt-5': 1}" })).toThrow(
      'QUANTA_MODEL_PRICES is not valid JSON.',
    );
  });

  it('rejects a table of the wrong shape, naming what is wrong', () => {
    expect(() => prices(table({ 'openai:gpt-5': { input: '1.25', output: 10 } }))).toThrow(
      'QUANTA_MODEL_PRICES: openai:gpt-5.input: must be number',
    );
    expect(() => prices(table({ 'openai:gpt-5': { input: 1.25 } }))).toThrow(
      'QUANTA_MODEL_PRICES: openai:gpt-5.output: is required',
    );
    expect(() => prices(table({ 'openai:gpt-5': { input: -1, output: 10 } }))).toThrow(
      /^QUANTA_MODEL_PRICES: openai:gpt-5\.input: must be >= 0$/,
    );
    expect(() => prices(table({ 'openai:gpt-5': { input: 1, output: 2, cached: 0.1 } }))).toThrow(
      'QUANTA_MODEL_PRICES: openai:gpt-5.cached: is not allowed',
    );
    expect(() => prices(table({ 'openai:gpt-5': 10 }))).toThrow(/^QUANTA_MODEL_PRICES: /);
  });

  it('rejects JSON that is not an object', () => {
    for (const value of [[], 5, null, 'free']) {
      expect(() => prices(table(value))).toThrow(
        'QUANTA_MODEL_PRICES must be a JSON object mapping model ids to {input, output}.',
      );
    }
  });

  it('does not remember a table it rejected', () => {
    const env = table({ 'openai:gpt-5': { input: 'x', output: 1 } });
    expect(() => prices(env)).toThrow(/QUANTA_MODEL_PRICES/);
    expect(() => prices(env)).toThrow(/QUANTA_MODEL_PRICES/);
  });
});

describe('tokenUsage', () => {
  it('computes the cost from dollars per million tokens', () => {
    expect(tokenUsage(usage(2_000_000, 500_000), { input: 1.25, output: 10 })).toEqual({
      inputTokens: 2_000_000,
      outputTokens: 500_000,
      cost: 2.5 + 5,
    });
    expect(tokenUsage(usage(1200, 300), { input: 3, output: 15 }).cost).toBeCloseTo(
      (1200 * 3 + 300 * 15) / 1_000_000,
      12,
    );
  });

  it('has no cost without a price', () => {
    const result = tokenUsage(usage(100, 20), undefined);
    expect(result).toEqual({ inputTokens: 100, outputTokens: 20 });
    expect(result).not.toHaveProperty('cost');
  });

  it('counts missing token counts as zero', () => {
    expect(tokenUsage(usage(undefined, undefined), undefined)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
    });
    expect(tokenUsage(usage(undefined, 1_000_000), { input: 1, output: 4 })).toEqual({
      inputTokens: 0,
      outputTokens: 1_000_000,
      cost: 4,
    });
  });

  it('a free model costs zero, not nothing', () => {
    expect(tokenUsage(usage(10, 10), { input: 0, output: 0 })).toEqual({
      inputTokens: 10,
      outputTokens: 10,
      cost: 0,
    });
  });
});
