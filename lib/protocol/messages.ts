import type { DynamicToolUIPart, ToolUIPart, UIMessage } from 'ai';
import type { ToolOutput } from './tool-output';

export type TokenUsage = { inputTokens: number; outputTokens: number; cost?: number };

/**
 * How an assistant message ended: `stopped`, `failed` and `interrupted` keep what was produced.
 * `interrupted`: the server running the turn died; the answer is what its log held.
 */
export type TurnStatus = 'streaming' | 'complete' | 'stopped' | 'failed' | 'interrupted';

export type MessageMetadata = {
  /** The model id (`provider:model`) that wrote an assistant message. */
  model?: string;
  status?: TurnStatus;
  /** Why the turn failed, in plain words. */
  error?: string;
  /** Tokens per model call, in order. */
  steps?: TokenUsage[];
  /** Tokens (and cost, when a price is known) of the whole turn. */
  usage?: TokenUsage;
};

/**
 * Every tool, whatever its name: the arguments are the tool's own, the output always a
 * ToolOutput. A part of type `dynamic-tool` is not one of them: it is a call of a tool the tool
 * set does not have, which only ever ends in `output-error`.
 */
export type QuantaTools = Record<string, { input: unknown; output: ToolOutput }>;

/**
 * The data parts of a message, each shown to people only (the model never reads them).
 * `summary`: the turn had the model summarise the earlier messages for its context first
 * (lib/agent/compaction.ts) — `summarising` while it does, `done` after.
 */
export type QuantaDataParts = { summary: { status: 'summarising' | 'done' } };

/** A message of a turn, as stored, streamed and shown. */
export type QuantaMessage = UIMessage<MessageMetadata, QuantaDataParts, QuantaTools>;

/** A tool call in a message, of a tool Quanta has or not. */
export type QuantaToolPart = ToolUIPart<QuantaTools> | DynamicToolUIPart;
