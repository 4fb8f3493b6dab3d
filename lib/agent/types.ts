// The messages a turn produces, as stored and as streamed (types only: shared with the UI).
import type { UIMessage } from 'ai';
import type { ToolOutcome } from '../tools/run-tool';

export type TokenUsage = { inputTokens: number; outputTokens: number; cost?: number };

/** How an assistant message ended: `stopped` and `failed` keep what was produced. */
export type TurnStatus = 'streaming' | 'complete' | 'stopped' | 'failed';

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

export type QuantaMessage = UIMessage<MessageMetadata>;

/** A tool part's output as the UI receives and stores it; the model gets only `modelText`. */
export type ToolOutput = ToolOutcome & { durationMs: number };
