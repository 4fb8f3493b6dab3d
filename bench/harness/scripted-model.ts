import { fork } from 'node:child_process';
import { type ChatRequest, type Responder, reply } from '../../tests/helpers/fake-openai';

// The model every run streams from: tests/helpers/fake-openai in a process of its own (so its
// work is not on the clients' event loop), answering each request as its last user message
// asks: "Answer with 40 tokens, one every 10 ms." The same text reaches it directly, through
// the bare route and through Quanta, so the three get the same answer at the same pace.

/** One token of every answer: a short word, as a model's tokens are on average. */
export const TOKEN = 'word ';

export type Ask = { tokens: number; paceMs: number };

export function promptFor({ tokens, paceMs }: Ask): string {
  return `Answer with ${tokens} tokens, one every ${paceMs} ms.`;
}

/** The ask in `text` (which may be a request's whole message content, as JSON). */
export function askIn(text: string): Ask | undefined {
  const match = /Answer with (\d+) tokens, one every (\d+) ms\./.exec(text);
  return match ? { tokens: Number(match[1]), paceMs: Number(match[2]) } : undefined;
}

/** How the scripted model answers: the ask in the last user message, paced; anything else briefly. */
export const scriptedAnswer: Responder = ({ body }) => {
  const asked = askIn(JSON.stringify(body.messages.findLast(({ role }) => role === 'user') ?? ''));
  if (!asked) return reply.text('Noted.');
  return reply.paced(asked.paceMs, ...Array<string>(asked.tokens).fill(TOKEN));
};

export function answerTo({ tokens }: Ask): string {
  return TOKEN.repeat(tokens);
}

export type ScriptedModel = {
  /** For OPENAI_COMPATIBLE_BASE_URL, e.g. `http://127.0.0.1:40123/v1`. */
  baseURL: string;
  /** The bodies of the chat-completions requests received after the first `since`. */
  requests(since: number): Promise<ChatRequest[]>;
  close(): void;
};

type FromModel = { baseURL: string } | { requests: ChatRequest[] };

export async function startScriptedModel(): Promise<ScriptedModel> {
  const child = fork(new URL('./scripted-model-server.mts', import.meta.url));
  const next = () =>
    new Promise<FromModel>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromModel));
      child.once('exit', (code) => reject(new Error(`the scripted model exited (${code})`)));
    });
  const started = await next();
  if (!('baseURL' in started)) throw new Error('the scripted model did not say its address');
  return {
    baseURL: started.baseURL,
    requests: async (since) => {
      const answer = next();
      child.send({ since });
      const received = await answer;
      if (!('requests' in received)) throw new Error('the scripted model sent no requests');
      return received.requests;
    },
    close: () => child.kill(),
  };
}
