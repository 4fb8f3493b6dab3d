import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { PartController, PartTransform } from './part-transforms';

type InputDelta = Extract<LanguageModelV3StreamPart, { type: 'tool-input-delta' }>;

/**
 * Passes each tool call's streamed arguments on in pieces that at least double what was sent of
 * them, instead of the provider's token-sized ones. The AI SDK's UI message stream parses a
 * call's whole arguments again at every piece (on the server, which keeps the message to store
 * it, and in the browser), so token-sized pieces cost time quadratic in the arguments' length —
 * 64 KiB of them took 7.5 s of CPU, 128 KiB 45 s. Doubling pieces keep it linear. What is held
 * back goes out before the call's end, its complete call, or the end of the stream.
 */
export function doublingToolInputPieces(): PartTransform {
  const inputs = new Map<string, { sent: number; held?: InputDelta }>();
  const release = (id: string, controller: PartController) => {
    const input = inputs.get(id);
    if (!input?.held) return;
    controller.enqueue(input.held);
    input.sent += input.held.delta.length;
    input.held = undefined;
  };
  return {
    transform(part, controller) {
      if (part.type === 'tool-input-delta') {
        const input = inputs.get(part.id) ?? { sent: 0 };
        inputs.set(part.id, input);
        input.held = { ...part, delta: (input.held?.delta ?? '') + part.delta };
        if (input.held.delta.length >= input.sent) release(part.id, controller);
        return;
      }
      if (part.type === 'tool-input-end') release(part.id, controller);
      if (part.type === 'tool-call') release(part.toolCallId, controller);
      controller.enqueue(part);
    },
    flush(controller) {
      for (const id of inputs.keys()) release(id, controller);
    },
  };
}
