// The least any Next route relaying a model can do: the model's own event stream passed on as
// it comes, read by nothing. What it costs a token is a floor under every relay's.
export async function POST(request: Request) {
  const { prompt } = (await request.json()) as { prompt: string };
  const upstream = await fetch(`${process.env.OPENAI_COMPATIBLE_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: process.env.BENCH_MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: prompt }],
    }),
  });
  return new Response(upstream.body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' },
  });
}
