import type { ChatRequest } from '../../tests/helpers/fake-openai';
import { type Ask, answerTo, promptFor } from './scripted-model';
import { type ChunkReader, openAiChunk, type Timing, timeStream, uiChunk } from './streams';

/** The model name Quanta and the bare route are configured with. */
export const MODEL = 'scripted';

/** One streamed answer to `ask`, from one of the places a bench compares. */
export type Target = (ask: Ask) => Promise<Timing>;

const json = { 'content-type': 'application/json' };

/** The scripted model read directly: the floor every other figure is compared with. */
export function direct(baseURL: string): Target {
  return (ask) =>
    replayed(baseURL, {
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: promptFor(ask) }],
    })(ask);
}

/**
 * The scripted model read directly with a request as it is, such as one Quanta sent it: the
 * model's own time for that prompt, whatever its size.
 */
export function replayed(baseURL: string, request: ChatRequest): Target {
  const body = JSON.stringify(request);
  return (ask) =>
    timeStream(
      () => fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: json, body }),
      openAiChunk,
      answerTo(ask),
    );
}

/** A route of bench/bare-route, asked for `ask`'s prompt, its stream read by `chunkOf`. */
function bareApp(url: string, chunkOf: ChunkReader): Target {
  return (ask) =>
    timeStream(
      () =>
        fetch(url, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ prompt: promptFor(ask) }),
        }),
      chunkOf,
      answerTo(ask),
    );
}

/** bench/bare-route's streamText route. */
export function bareRoute(url: string): Target {
  return bareApp(`${url}/api/chat`, uiChunk);
}

/** bench/bare-route's pass-through: the model's own events, relayed as they come. */
export function passThrough(url: string): Target {
  return bareApp(`${url}/api/relay`, openAiChunk);
}

/** A Quanta instance and an API token of one identity on it. */
export type QuantaClient = { url: string; bearer: string };

/**
 * Quanta: each turn in the next of `sessions` (taken from the end), so that a turn is the first
 * of its session, with the same one-message history the other places get.
 */
export function quanta({ url, bearer }: QuantaClient, sessions: string[]): Target {
  return (ask) => {
    const id = sessions.pop();
    if (!id) throw new Error('the bench created too few sessions');
    return timeStream(
      () =>
        fetch(`${url}/api/sessions/${id}/messages`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${bearer}` },
          body: JSON.stringify({
            message: { role: 'user', parts: [{ type: 'text', text: promptFor(ask) }] },
          }),
        }),
      uiChunk,
      answerTo(ask),
    );
  };
}

/** `count` new sessions on `client`'s instance, created ten at a time. */
export async function newSessions({ url, bearer }: QuantaClient, count: number): Promise<string[]> {
  const create = async () => {
    const response = await fetch(`${url}/api/sessions`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${bearer}` },
      body: '{}',
    });
    if (response.status !== 201) throw new Error(`POST /api/sessions: ${await response.text()}`);
    return ((await response.json()) as { session: { id: string } }).session.id;
  };
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = Math.min(10, count - ids.length);
    ids.push(...(await Promise.all(Array.from({ length: batch }, create))));
  }
  return ids;
}

/** Turns sent to `targets` in turn: clients spread over instances without a load balancer. */
export function roundRobin(targets: Target[]): Target {
  let next = 0;
  return (ask) => {
    const target = targets[next % targets.length] as Target;
    next += 1;
    return target(ask);
  };
}

/** `count` answers to `ask` from `target`, all asked at once. */
export function burst(target: Target, ask: Ask, count: number): Promise<Timing[]> {
  return Promise.all(Array.from({ length: count }, () => target(ask)));
}
