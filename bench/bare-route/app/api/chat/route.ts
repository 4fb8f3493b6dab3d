import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';

// The least a Next route can do to relay a model to a browser: one streamText call, no tools, no
// database. bench/run.mts measures Quanta against it.
export async function POST(request: Request) {
  const { prompt } = (await request.json()) as { prompt: string };
  const local = createOpenAICompatible({
    name: 'local',
    baseURL: process.env.OPENAI_COMPATIBLE_BASE_URL as string,
    includeUsage: true,
  });
  const result = streamText({ model: local(process.env.BENCH_MODEL as string), prompt });
  return result.toUIMessageStreamResponse();
}
