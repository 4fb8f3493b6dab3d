import { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { FRAME_MS, type FrameRules, framedReadable } from './delta-frames';
import { type ModelAnswer, type ModelRequest, requestModel } from './model-request';

// An OpenAI-compatible server streams a chat completion as one server-sent event per token.
// The provider validates each event against its schema and makes a chunk of it for every layer
// above: joined into frames before the provider reads them, the events cost that once a frame.

/** The delta fields that carry text: the answer and, as servers name it, the reasoning. */
const TEXT_FIELDS = ['content', 'reasoning_content', 'reasoning'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

type Choice = { index?: unknown; delta?: Record<string, unknown> } & Record<string, unknown>;
type Completion = { choices?: unknown } & Record<string, unknown>;

/** An event that is only a piece of one choice's text. */
type TextEvent = {
  completion: Completion;
  choice: Choice;
  field: TextField;
  text: string;
  /** The event as it came, sent as it is when no other event joins it. */
  message: EventSourceMessage;
};

/**
 * The event as a piece of text, or undefined for any other (its role, a tool call, the finish
 * reason, usage, log probabilities, a field of the completion that is not a plain value, a
 * stream error): those pass unchanged.
 */
function textEvent(message: EventSourceMessage): TextEvent | undefined {
  const { event, data } = message;
  if (event !== undefined || !data.startsWith('{')) return undefined;
  let completion: Completion;
  try {
    completion = JSON.parse(data) as Completion;
  } catch {
    return undefined;
  }
  const { choices, ...fields } = completion;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  // Usage, or anything else a server adds beside the choices (timings, citations), belongs to
  // its own event: only plain values repeated in every event (id, model, created) may be joined.
  if (Object.values(fields).some((value) => typeof value === 'object' && value !== null)) {
    return undefined;
  }
  const choice = choices[0];
  if (typeof choice !== 'object' || choice === null) return undefined;
  const { index, delta, ...rest } = choice as Choice;
  if (typeof delta !== 'object' || delta === null) return undefined;
  if (Object.entries(rest).some(([, value]) => value != null)) return undefined;
  // Some servers (Ollama) repeat the role in every event: it is the same in all of them.
  const texts = Object.entries(delta).filter(([key, value]) => key !== 'role' && value != null);
  const [field, text] = texts[0] ?? [];
  if (texts.length !== 1 || !TEXT_FIELDS.includes(field as TextField)) return undefined;
  if (typeof text !== 'string' || text === '') return undefined;
  return { completion, choice, field: field as TextField, text, message };
}

const encoder = new TextEncoder();

/** An event in the wire's form: each line of its data a `data:` line. */
const wire = ({ event, id, data }: EventSourceMessage) =>
  encoder.encode(
    `${event === undefined ? '' : `event: ${event}\n`}${id === undefined ? '' : `id: ${id}\n`}${data
      .split('\n')
      .map((line) => `data: ${line}\n`)
      .join('')}\n`,
  );

/** Whether two completions' fields beside the choices (all plain values) are the same. */
const sameFields = (one: Completion, other: Completion) => {
  const keys = Object.keys(one);
  return (
    keys.length === Object.keys(other).length &&
    keys.every((key) => key === 'choices' || one[key] === other[key])
  );
};

const eventRules: FrameRules<EventSourceMessage, TextEvent, Uint8Array> = {
  item: textEvent,
  continues: (last, next) =>
    sameFields(last.completion, next.completion) &&
    last.choice.index === next.choice.index &&
    last.field === next.field,
  merge: (events) => {
    const { completion, choice, field, message } = events[0] as TextEvent;
    if (events.length === 1) return wire(message);
    const text = events.map((event) => event.text).join('');
    const delta = { ...choice.delta, [field]: text };
    const joined = { ...completion, choices: [{ ...choice, delta }] };
    return wire({ ...message, data: JSON.stringify(joined) });
  },
  pass: wire,
};

/**
 * `fetch` for an OpenAI-compatible provider, sent by `request`: a streamed chat completion's
 * text events come joined into frames of at most `frameMs` (see `framedReadable`); every other
 * response, and every other event, is the server's as it sent it.
 */
export function framedChatFetch(
  request: ModelRequest = requestModel,
  frameMs = FRAME_MS,
): typeof fetch {
  return async (input, init) => {
    const answer = await request(input, init);
    const { status, statusText, headers } = answer;
    // `fetch` takes any status; a `Response` made here only 200 to 599.
    if (status < 200 || status > 599) {
      answer.body.destroy();
      throw new TypeError('fetch failed', {
        cause: new Error(`The model server answered with HTTP status ${status}`),
      });
    }
    return new Response(bodyOf(answer, frameMs), { status, statusText, headers });
  };
}

/** Statuses whose answer has no body: a `Response` given one throws. */
const NO_BODY = new Set([204, 205, 304]);

function bodyOf({ status, headers, body }: ModelAnswer, frameMs: number) {
  if (NO_BODY.has(status)) {
    body.destroy();
    return null;
  }
  if ((headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return framedEvents(body, frameMs);
  }
  return Readable.toWeb(body) as ReadableStream<Uint8Array>;
}

/** A chat completion's server-sent events, bytes to events to frames in one pass a chunk. */
function framedEvents(body: Readable, frameMs: number): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let add: (event: EventSourceMessage) => void = () => {};
  const parser = createParser({ onEvent: (event) => add(event) });
  return framedReadable(
    body,
    (bytes: Uint8Array, addEvent) => {
      add = addEvent;
      parser.feed(decoder.decode(bytes, { stream: true }));
    },
    eventRules,
    frameMs,
  );
}
