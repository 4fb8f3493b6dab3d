// The cost of Quanta's turn machinery (tools through runTool, the UI message stream, usage
// metadata) over a bare streamText call, with the offline demo model at full speed.
// Run: npx tsx bench/turn-overhead.mts
import { stepCountIs, streamText } from 'ai';
import { toAiTools } from '@/lib/agent/ai-tools';
import { createDemoModel } from '@/lib/agent/demo-model';
import { runTurn } from '@/lib/agent/run-turn';
import { memoryServices } from '@/tests/helpers/tool-services';
import { demoIntents, toolSet } from '@/tools';

const PROMPT = 'calculate 12 * (3 + 4) and show me a counter starting at 3';
const RUNS = 200;
const context = { agentId: 'bench', sessionId: 'bench', services: memoryServices() };

async function bare(): Promise<void> {
  const result = streamText({
    model: createDemoModel({ delayMs: 0, intents: demoIntents }),
    prompt: PROMPT,
    tools: toAiTools(toolSet, context, {
      maxInputBytes: 64 * 1024,
      maxWidgetDataBytes: 256 * 1024,
    }),
    stopWhen: stepCountIs(5),
  });
  for await (const _ of result.fullStream) {
    // drain
  }
}

async function quanta(): Promise<void> {
  const stream = await runTurn({
    model: createDemoModel({ delayMs: 0, intents: demoIntents }),
    modelId: 'demo:offline',
    history: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: PROMPT }] }],
    messageId: 'a1',
    toolSet,
    ...context,
    maxSteps: 5,
    maxAnswerBytes: 1024 * 1024,
    maxToolInputBytes: 64 * 1024,
    maxWidgetDataBytes: 256 * 1024,
    signal: new AbortController().signal,
    onStep: async () => {},
    onEnd: async () => {},
  });
  // Drained as the server drains it; the browser's parsing is not the server's cost.
  const reader = stream.getReader();
  while (!(await reader.read()).done) {}
}

async function median(run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

// Warm up both paths (JIT, module caches) before measuring.
await median(bare);
await median(quanta);
const baseline = await median(bare);
const measured = await median(quanta);
console.log(`bare streamText, tools through runTool: median ${baseline.toFixed(2)} ms per turn`);
console.log(`Quanta runTurn + UI message stream:      median ${measured.toFixed(2)} ms per turn`);
console.log(
  `ratio: ${(measured / baseline).toFixed(2)}x (${RUNS} turns each, 2 tool calls per turn)`,
);
