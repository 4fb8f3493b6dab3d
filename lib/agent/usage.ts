import type { LanguageModelUsage } from 'ai';
import type { Env } from '../config';
import type { TokenUsage } from '../protocol';
import { validate } from '../schema';

/** US dollars per million tokens. */
export type Price = { input: number; output: number };

const pricesSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { input: { type: 'number', minimum: 0 }, output: { type: 'number', minimum: 0 } },
    required: ['input', 'output'],
    additionalProperties: false,
  },
};

const parsed = new Map<string, Record<string, Price>>();

/**
 * The optional price table, `QUANTA_MODEL_PRICES`: JSON mapping a model id to its price, e.g.
 * `{"openai:gpt-5":{"input":1.25,"output":10}}`. Parsed once; a malformed table is an error
 * (instrumentation checks it at start-up, so the server refuses to start with one).
 */
export function prices(env: Env = process.env): Record<string, Price> {
  const raw = env.QUANTA_MODEL_PRICES;
  if (!raw) return {};
  const known = parsed.get(raw);
  if (known) return known;
  let table: unknown;
  try {
    table = JSON.parse(raw);
  } catch {
    throw new Error('QUANTA_MODEL_PRICES is not valid JSON.');
  }
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new Error(
      'QUANTA_MODEL_PRICES must be a JSON object mapping model ids to {input, output}.',
    );
  }
  const result = validate(pricesSchema, table);
  if (!result.valid) throw new Error(`QUANTA_MODEL_PRICES: ${result.message}`);
  parsed.set(raw, table as Record<string, Price>);
  return table as Record<string, Price>;
}

export function tokenUsage(usage: LanguageModelUsage, price: Price | undefined): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  if (!price) return { inputTokens, outputTokens };
  const cost = (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
  return { inputTokens, outputTokens, cost };
}
