import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { expect, it } from 'vitest';
import type { QuantaMessage } from '../protocol';
import { buildMessage, interruptedMessage, joinDeltas } from './turn-message';

const text = (id: string, delta: string): UIMessageChunk => ({ type: 'text-delta', id, delta });
const reasoning = (id: string, delta: string): UIMessageChunk => ({
  type: 'reasoning-delta',
  id,
  delta,
});

/** A turn's chunks as runTurn streams them: reasoning, text in pieces, a tool call and its result. */
const turn: UIMessageChunk[] = [
  {
    type: 'start',
    messageId: 'm1',
    messageMetadata: { model: 'demo:offline', status: 'streaming' },
  },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r' },
  reasoning('r', 'Let me '),
  reasoning('r', 'think.'),
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't1' },
  text('t1', 'Here '),
  text('t1', 'is '),
  text('t1', 'a note.'),
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', toolCallId: 'c1', toolName: 'note' },
  { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"title":' },
  { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"Hi"}' },
  { type: 'tool-input-available', toolCallId: 'c1', toolName: 'note', input: { title: 'Hi' } },
  { type: 'tool-output-available', toolCallId: 'c1', output: { shown: true } },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'text-start', id: 't2' },
  text('t2', 'Done'),
  text('t2', '.'),
  { type: 'text-end', id: 't2' },
  { type: 'finish-step' },
  { type: 'finish', messageMetadata: { status: 'complete' } },
];

async function asTheSdkReadsIt(chunks: UIMessageChunk[]): Promise<QuantaMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: QuantaMessage | undefined;
  for await (const snapshot of readUIMessageStream<QuantaMessage>({ stream })) message = snapshot;
  return message;
}

it('joins adjacent deltas of one part, and only those', () => {
  expect(
    joinDeltas([
      text('a', 'He'),
      text('a', 'llo'),
      text('b', ' there'),
      reasoning('b', 'hm'),
      reasoning('b', 'm'),
      { type: 'text-end', id: 'a' },
      text('a', '!'),
      text('a', '!'),
    ]),
  ).toEqual([
    text('a', 'Hello'),
    text('b', ' there'),
    reasoning('b', 'hmm'),
    { type: 'text-end', id: 'a' },
    text('a', '!!'),
  ]);
});

it('leaves the chunks it is given as they were', () => {
  const chunks = [text('a', 'He'), text('a', 'llo')];
  joinDeltas(chunks);
  expect(chunks).toEqual([text('a', 'He'), text('a', 'llo')]);
});

it('builds the message a client reading the chunks holds', async () => {
  const built = await buildMessage(turn);
  expect(built).toEqual(await asTheSdkReadsIt(turn));
  expect(built?.id).toBe('m1');
  expect(built?.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([
    'Here is a note.',
    'Done.',
  ]);
});

it('builds the message so far from the chunks of a turn still running', async () => {
  const sofar = turn.slice(0, 9);
  const built = await buildMessage(sofar);
  expect(built).toEqual(await asTheSdkReadsIt(sofar));
  expect(built?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Here is ', state: 'streaming' });
});

it('builds a step just begun: its start is there before anything it shows', async () => {
  const begun = turn.slice(0, turn.findIndex((chunk) => chunk.type === 'finish-step') + 2);
  expect(begun.at(-1)).toEqual({ type: 'start-step' });
  const built = await buildMessage(begun);
  expect(built?.parts.at(-1)).toEqual({ type: 'step-start' });
  expect(built?.metadata).toEqual({ model: 'demo:offline', status: 'streaming' });
});

it('builds nothing from chunks that never started a message', async () => {
  expect(await buildMessage([])).toBeUndefined();
  expect(
    await buildMessage([{ type: 'text-start', id: 't' }, text('t', 'orphan')]),
  ).toBeUndefined();
});

it('settles an interrupted turn: its text kept, its unfinished tool call failed, its status interrupted', async () => {
  const cut = turn.slice(0, 13); // mid-way through the note's arguments
  const message = await interruptedMessage(cut, 10_000);
  expect(message?.id).toBe('m1');
  expect(message?.metadata).toEqual({ model: 'demo:offline', status: 'interrupted' });
  expect(message?.parts.find((part) => part.type === 'text')).toMatchObject({
    text: 'Here is a note.',
    state: 'done',
  });
  const call = message?.parts.find((part) => part.type === 'tool-note');
  expect(call).toMatchObject({
    toolCallId: 'c1',
    state: 'output-error',
    errorText: 'The turn ended before this call finished.',
  });
  expect(call).not.toHaveProperty('rawInput');
});

it('shows the text an interruption cut short as finished, not as still streaming', async () => {
  const message = await interruptedMessage(turn.slice(0, 9), 10_000);
  expect(message?.parts.at(-1)).toEqual({ type: 'text', text: 'Here is ', state: 'done' });
  const thinking = await interruptedMessage(turn.slice(0, 4), 10_000);
  expect(thinking?.parts.at(-1)).toMatchObject({
    type: 'reasoning',
    text: 'Let me ',
    state: 'done',
  });
});

it('keeps a finished tool call of an interrupted turn as it was', async () => {
  const message = await interruptedMessage(turn.slice(0, 17), 10_000);
  expect(message?.parts.find((part) => part.type === 'tool-note')).toMatchObject({
    state: 'output-available',
    input: { title: 'Hi' },
    output: { shown: true },
  });
});

it('stores an interrupted tool call’s arguments only under the cap', async () => {
  const message = await interruptedMessage(turn.slice(0, 17), 4);
  expect(message?.parts.find((part) => part.type === 'tool-note')).toMatchObject({
    input: { omitted: expect.stringContaining('were not kept') },
  });
});

it('leaves nothing of a turn that logged no start', async () => {
  expect(await interruptedMessage([], 10_000)).toBeUndefined();
});
