import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatRequest,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../../tests/helpers/fake-openai';
import { direct, replayed } from './clients';
import { promptFor, scriptedAnswer } from './scripted-model';

let fake: FakeOpenAI | undefined;
afterEach(() => fake?.close());

/** The scripted model, in this process. */
async function scripted(): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI();
  fake.respond(scriptedAnswer);
  return fake;
}

describe('the model read directly', () => {
  const ask = { tokens: 3, paceMs: 0 };

  it('is asked for the answer alone', async () => {
    const model = await scripted();
    expect(await direct(model.baseURL)(ask)).toMatchObject({ ok: true });
    expect(model.since(0).map(({ body }) => body.messages)).toEqual([
      [{ role: 'user', content: promptFor(ask) }],
    ]);
  });

  it('replays a request Quanta sent as it was, and reads the answer to its ask', async () => {
    const model = await scripted();
    const sent: ChatRequest = {
      model: 'scripted',
      stream: true,
      messages: [
        { role: 'system', content: 'You are Quanta.' },
        { role: 'user', content: 'Question 1: what is 1 * 7?' },
        { role: 'assistant', content: '1 × 7 = 7.' },
        { role: 'user', content: [{ type: 'text', text: promptFor(ask) }] },
      ],
      tools: [{ type: 'function', function: { name: 'calculate', parameters: {} } }],
    };
    const replay = replayed(model.baseURL, sent);
    expect(await replay(ask)).toMatchObject({ ok: true });
    expect(await replay(ask)).toMatchObject({ ok: true });
    expect(model.since(0).map(({ body }) => body)).toEqual([sent, sent]);
    // The answer checked is the ask's: a replay of another ask's request is an error.
    expect(await replay({ tokens: 5, paceMs: 0 })).toMatchObject({ ok: false });
  });
});
