import type { APIRequestContext } from '@playwright/test';
import {
  type ChatMessage,
  type FakeOpenAI,
  modelEnv,
  type RecordedRequest,
  reply,
  startFakeOpenAI,
} from '../helpers/fake-openai';
import { freePort, type NextServer, newIdentity, startNext } from '../helpers/next-server';
import {
  apiAs,
  createSession,
  errors,
  expect,
  type Message,
  type Part,
  read,
  say,
  test,
  texts,
  type UiChunk,
} from './fixtures';

// The app against a real HTTP server that speaks the OpenAI chat-completions protocol: what it
// streams to the client, what it stores, and exactly what it sends the model.

const MODEL = 'fake-model';
const MODEL_ID = `local:${MODEL}`;

type Outcome = { isError: boolean; modelText: string; ui?: unknown };

let fake: FakeOpenAI;

test.beforeAll(async () => {
  fake = await startFakeOpenAI();
});

test.afterAll(async () => {
  await fake?.close();
});

/** An app server on the fake, and a bearer-authenticated API client for one identity. */
function useApp(env: Record<string, string> = {}) {
  const state: { app?: NextServer; api?: APIRequestContext } = {};
  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(90_000);
    state.app = await startNext({
      port: await freePort(),
      env: { ...modelEnv(fake, MODEL), ...env },
    });
    const { bearer } = await newIdentity(state.app.url);
    state.api = await apiAs(playwright, state.app.url, bearer);
  });
  test.afterAll(async () => {
    await state.api?.dispose();
    await state.app?.stop();
  });
  return () => state.api as APIRequestContext;
}

test.describe('with an OpenAI-compatible server', () => {
  const api = useApp();

  test('the model is offered and is the default', async () => {
    const response = await api().get('/api/models');
    expect(response.status()).toBe(200);
    const { models, defaultId } = (await response.json()) as {
      models: { id: string; demo: boolean }[];
      defaultId: string;
    };
    expect(defaultId).toBe(MODEL_ID);
    expect(models.map((model) => model.id)).toEqual([MODEL_ID, 'demo:offline']);
  });

  test('text streams to the client in several chunks and is stored', async () => {
    const mark = fake.requests.length;
    fake.script(reply.text('The ', 'quick ', 'brown ', 'fox.'));
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Tell me about the fox');

    // The first words at once, the rest joined into frames of at most ~30 ms.
    const deltas = chunks.filter((chunk) => chunk.type === 'text-delta').map(({ delta }) => delta);
    expect(deltas[0]).toBe('The ');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The quick brown fox.');
    expect(errors(chunks)).toEqual([]);
    // The model's finish, then how the turn ended, for every reader of the stream.
    expect(chunks.at(-2)?.type).toBe('finish');
    expect(chunks.at(-1)).toMatchObject({
      type: 'message-metadata',
      messageMetadata: { status: 'complete' },
    });

    const sent = fake.since(mark);
    expect(sent).toHaveLength(1);
    const body = (sent[0] as RecordedRequest).body;
    expect(body.model).toBe(MODEL);
    expect(body.stream).toBe(true);
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(contentText(body.messages.at(-1))).toBe('Tell me about the fox');
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['calculate', 'show_counter']),
    );

    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(texts(messages[1])).toBe('The quick brown fox.');
    expect(messages[1]?.metadata).toMatchObject({ status: 'complete', model: MODEL_ID });
  });

  test('a tool round trip: the model calls calculate and gets its result', async () => {
    const mark = fake.requests.length;
    fake.script(
      reply.toolCalls(
        [{ name: 'calculate', args: { expression: '6 * 7' }, id: 'call_mul' }],
        'Let ',
        'me check.',
      ),
      reply.text('It is ', '42.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'What is six times seven?');

    expect(errors(chunks)).toEqual([]);
    expect(chunks).toContainEqual(
      expect.objectContaining({
        type: 'tool-input-available',
        toolCallId: 'call_mul',
        toolName: 'calculate',
        input: { expression: '6 * 7' },
      }),
    );
    expect(outputOf(chunks, 'call_mul')).toMatchObject({ isError: false, modelText: '6 * 7 = 42' });

    const sent = fake.since(mark);
    expect(sent).toHaveLength(2);
    const second = (sent[1] as RecordedRequest).body.messages;
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_mul',
          type: 'function',
          function: { name: 'calculate', arguments: '{"expression":"6 * 7"}' },
        },
      ],
    });
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_mul' });
    expect(contentText(second.at(-1))).toBe('6 * 7 = 42');

    const { messages } = await read(api(), id);
    const answer = messages[1] as Message;
    expect(texts(answer)).toBe('Let me check.It is 42.');
    expect(answer.metadata).toMatchObject({ status: 'complete' });
    expect(toolParts(answer)).toEqual([
      expect.objectContaining({
        type: 'tool-calculate',
        toolCallId: 'call_mul',
        state: 'output-available',
        output: expect.objectContaining({ isError: false, modelText: '6 * 7 = 42' }),
      }),
    ]);
  });

  test('two tool calls in one answer both run, and both results go back', async () => {
    const mark = fake.requests.length;
    fake.script(
      reply.toolCalls([
        { name: 'calculate', args: { expression: '2 + 2' }, id: 'call_add' },
        { name: 'calculate', args: { expression: '3 * 5' }, id: 'call_times' },
      ]),
      reply.text('4 and 15.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Add two and two, and multiply three by five');

    expect(errors(chunks)).toEqual([]);
    expect(outputOf(chunks, 'call_add')).toMatchObject({ isError: false, modelText: '2 + 2 = 4' });
    expect(outputOf(chunks, 'call_times')).toMatchObject({
      isError: false,
      modelText: '3 * 5 = 15',
    });

    const sent = fake.since(mark);
    expect(sent).toHaveLength(2);
    const results = toolResults((sent[1] as RecordedRequest).body.messages);
    expect(results).toEqual({ call_add: '2 + 2 = 4', call_times: '3 * 5 = 15' });

    const { messages } = await read(api(), id);
    expect(toolParts(messages[1]).map((part) => part.state)).toEqual([
      'output-available',
      'output-available',
    ]);
    expect(texts(messages[1])).toBe('4 and 15.');
  });

  test('invalid arguments reach the model as our validation message; execute does not run', async () => {
    const mark = fake.requests.length;
    fake.script(
      reply.toolCalls([
        { name: 'calculate', args: {}, id: 'call_missing' },
        { name: 'calculate', args: { expression: '1 + 1', unit: 'cm' }, id: 'call_extra' },
      ]),
      reply.text('Sorry, ', 'my mistake.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Calculate something');

    expect(errors(chunks)).toEqual([]);
    expect(outputOf(chunks, 'call_missing')).toMatchObject({
      isError: true,
      modelText: 'expression: is required',
    });
    // Had execute run, this one would say "1 + 1 = 2".
    expect(outputOf(chunks, 'call_extra')).toMatchObject({
      isError: true,
      modelText: 'unit: is not allowed',
    });

    const sent = fake.since(mark);
    expect(sent).toHaveLength(2);
    expect(toolResults((sent[1] as RecordedRequest).body.messages)).toEqual({
      call_missing: 'expression: is required',
      call_extra: 'unit: is not allowed',
    });
    expect((sent[1] as RecordedRequest).raw).not.toContain('1 + 1 = 2');

    const { messages } = await read(api(), id);
    expect(texts(messages[1])).toBe('Sorry, my mistake.');
    expect(messages[1]?.metadata).toMatchObject({ status: 'complete' });
  });

  test('a tool that fails yields an error result and the turn still finishes', async () => {
    const mark = fake.requests.length;
    // mathjs throws on this expression; calculate turns the throw into an error result.
    fake.script(
      reply.toolCalls([{ name: 'calculate', args: { expression: '1 +' }, id: 'call_bad' }]),
      reply.text('That expression ', 'is incomplete.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Calculate one plus');

    expect(errors(chunks)).toEqual([]);
    const outcome = outputOf(chunks, 'call_bad');
    expect(outcome.isError).toBe(true);
    expect(outcome.modelText).toMatch(/^cannot calculate 1 \+: .*end of expression/i);

    const sent = fake.since(mark);
    expect(sent).toHaveLength(2);
    expect(toolResults((sent[1] as RecordedRequest).body.messages)).toEqual({
      call_bad: outcome.modelText,
    });

    const { messages } = await read(api(), id);
    expect(texts(messages[1])).toBe('That expression is incomplete.');
    expect(messages[1]?.metadata).toMatchObject({ status: 'complete' });
  });

  test('HTTP 500 after a tool step: a readable error, the partial answer kept', async () => {
    const mark = fake.requests.length;
    fake.respond((request) =>
      request.body.messages.some((message) => message.role === 'tool')
        ? reply.status(500, 'the GPU caught fire')
        : reply.toolCalls(
            [{ name: 'calculate', args: { expression: '10 / 4' }, id: 'call_div' }],
            'Working ',
            'on it.',
          ),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Divide ten by four');

    const error = 'The model provider failed (HTTP 500). the GPU caught fire (tried 3 times)';
    expect(errors(chunks)).toEqual([error]);
    expect(outputOf(chunks, 'call_div')).toMatchObject({
      isError: false,
      modelText: '10 / 4 = 2.5',
    });
    // One call that worked, then the failing one and its two retries.
    expect(fake.since(mark)).toHaveLength(4);

    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(texts(messages[1])).toBe('Working on it.');
    expect(toolParts(messages[1])).toHaveLength(1);
    expect(messages[1]?.metadata).toMatchObject({ status: 'failed', error });
  });

  test('HTTP 429 on every try: a readable error and a failed turn', async () => {
    const mark = fake.requests.length;
    fake.respond(() => reply.status(429, 'slow down, please'));
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Hello?');

    const error =
      'The model provider is rate-limiting requests (HTTP 429). slow down, please (tried 3 times)';
    expect(errors(chunks)).toEqual([error]);
    expect(fake.since(mark)).toHaveLength(3);

    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(messages[0]).toMatchObject({ role: 'user' });
    expect(texts(messages[0])).toBe('Hello?');
    expect(messages[1]).toMatchObject({ role: 'assistant', metadata: { status: 'failed', error } });
  });

  test('a connection dropped mid-answer: the turn fails, the text so far kept', async () => {
    const mark = fake.requests.length;
    fake.respond(() => reply.drop('Once ', 'upon ', 'a time'));
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Tell me a story');

    expect(
      chunks
        .filter((chunk) => chunk.type === 'text-delta')
        .map((chunk) => chunk.delta)
        .join(''),
    ).toBe('Once upon a time');
    const streamed = errors(chunks);
    expect(streamed).toHaveLength(1);
    // A broken answer is not retried: that would repeat the text already shown.
    expect(fake.since(mark)).toHaveLength(1);

    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(texts(messages[1])).toBe('Once upon a time');
    expect(messages[1]?.metadata).toMatchObject({ status: 'failed', error: streamed[0] });
  });

  test('a connection dropped mid-answer is named as such in the error', async () => {
    // The AI SDK wraps undici's "terminated" in an APICallError with status 200: the cause,
    // not the status, must name what happened.
    fake.respond(() => reply.drop('Once ', 'upon ', 'a time'));
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Tell me another story');

    const error = 'The connection to the model dropped in the middle of the answer.';
    expect(errors(chunks)).toEqual([error]);
    const { messages } = await read(api(), id);
    expect(messages[1]?.metadata).toMatchObject({ status: 'failed', error });
  });

  test('NUL, lone surrogates and emoji in an answer and in tool arguments reload as they streamed', async () => {
    const odd = 'a\u0000b \ud800 c\udfff 😀 𝕏';
    fake.script(
      reply.toolCalls([
        { name: 'calculate', args: { expression: `1 + 1 ${odd}` }, id: 'call_odd' },
      ]),
      reply.text('Here: ', odd, ' done'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Odd characters, please');
    const streamed = chunks
      .filter((chunk) => chunk.type === 'text-delta')
      .map((chunk) => chunk.delta)
      .join('');
    expect(streamed).toContain('\u0000');
    const input = chunks.find((chunk) => chunk.type === 'tool-input-available')?.input;

    const { messages } = await read(api(), id);
    // What the server stores: NUL and unpaired surrogates each one visible U+FFFD.
    const visible = (text: string) => text.replaceAll('\u0000', '\ufffd').toWellFormed();
    const answer = messages[1];
    const stored = answer?.parts.filter((part) => part.type === 'text').at(-1)?.text;
    expect(stored).toBe(visible(streamed));
    expect(stored).toContain('😀 𝕏');
    expect(stored).toContain('a\ufffdb \ufffd c\ufffd');
    const call = toolParts(answer).find((part) => part.toolCallId === 'call_odd');
    expect(call?.input).toEqual({
      expression: visible((input as { expression: string }).expression),
    });
    expect(answer?.metadata?.status).toBe('complete');
  });

  test('show_counter: the widget reaches the client, never the model', async () => {
    const mark = fake.requests.length;
    fake.script(
      reply.toolCalls([{ name: 'show_counter', args: { start: 4242 }, id: 'call_counter' }]),
      reply.text('Here is ', 'your counter.'),
      // The next turn replays the stored transcript, widget and all, to the model.
      reply.text('You are welcome.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Show me a counter from 4242');

    expect(errors(chunks)).toEqual([]);
    expect(outputOf(chunks, 'call_counter')).toMatchObject({
      isError: false,
      modelText: 'Showed the user a counter starting at 4242.',
      ui: { kind: 'widget', label: 'Open counter', widget: 'counter', data: { count: 4242 } },
    });
    await say(api(), id, 'Thanks');

    const sent = fake.since(mark);
    expect(sent).toHaveLength(3);
    for (const request of sent.slice(1)) {
      expect(toolResults(request.body.messages)).toEqual({
        call_counter: 'Showed the user a counter starting at 4242.',
      });
    }
    expectNoUiLeak(sent);

    const { messages } = await read(api(), id);
    expect(toolParts(messages[1])).toEqual([
      expect.objectContaining({
        type: 'tool-show_counter',
        state: 'output-available',
        output: expect.objectContaining({ ui: expect.objectContaining({ label: 'Open counter' }) }),
      }),
    ]);
  });
});

test.describe('with a model that never answers', () => {
  const api = useApp({ QUANTA_MODEL_TIMEOUT_MS: '1500' });

  test('a model that goes silent mid-answer ends the turn after the timeout, its text kept', async () => {
    fake.respond(() => reply.stall('The first ', 'words'));
    const { id } = await createSession(api());
    const started = Date.now();
    const chunks = await say(api(), id, 'Tell me a long story');

    const error = 'The model sent nothing for 1500 ms, so the turn was ended.';
    expect(errors(chunks)).toEqual([error]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(texts(messages[1])).toBe('The first words');
    expect(messages[1]).toMatchObject({ metadata: { status: 'failed', error } });
  });

  test('the turn ends after QUANTA_MODEL_TIMEOUT_MS with a readable error', async () => {
    const mark = fake.requests.length;
    fake.respond(() => reply.hang());
    const { id } = await createSession(api());
    const started = Date.now();
    const chunks = await say(api(), id, 'Are you there?');

    const error = 'The model sent nothing for 1500 ms, so the turn was ended.';
    expect(errors(chunks)).toEqual([error]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fake.since(mark).length).toBeGreaterThanOrEqual(1);

    const { session, messages } = await read(api(), id);
    expect(session.turnActive).toBe(false);
    expect(messages[1]).toMatchObject({ role: 'assistant', metadata: { status: 'failed', error } });
  });
});

test.describe('with small limits', () => {
  const api = useApp({
    QUANTA_LIMIT_SESSIONS_PER_MINUTE: '2',
    QUANTA_MAX_ANSWER_BYTES: '2000',
    QUANTA_MAX_TOOL_INPUT_BYTES: '1000',
  });

  test('an answer past its byte budget is cut, stored with a visible marker, and says why', async () => {
    fake.script(reply.text(...Array.from({ length: 40 }, () => 'x'.repeat(100))));
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Write a lot');
    expect(errors(chunks)).toEqual([expect.stringContaining('The answer grew longer than')]);
    const { messages } = await read(api(), id);
    const text = texts(messages[1]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000 + 100);
    expect(text).toMatch(/\[answer too long: stopped at [^\]]+\]$/);
    expect(messages[1]?.metadata).toMatchObject({ status: 'failed' });
    expect(messages[1]?.metadata?.error).toContain('The answer grew longer than');
  });

  test('tool arguments over the limit are refused, and not stored whole', async () => {
    const mark = fake.requests.length;
    fake.script(
      // Over the 1,000 bytes of arguments, within the answer's 2,000.
      reply.toolCalls([{ name: 'save_note', args: { text: 'y'.repeat(1_500) }, id: 'call_big' }]),
      reply.text('It was too long.'),
    );
    const { id } = await createSession(api());
    const chunks = await say(api(), id, 'Save this huge note');
    expect(outputOf(chunks, 'call_big').isError).toBe(true);
    const results = toolResults(fake.since(mark)[1]?.body.messages ?? []);
    expect(results.call_big).toMatch(/^The arguments were too long/);
    const { messages } = await read(api(), id);
    const stored = JSON.stringify(toolParts(messages[1]));
    expect(stored).not.toContain('y'.repeat(1_000));
    expect(stored).toContain('were not kept');
  });

  test('past the sessions a minute, creating one answers 429 with Retry-After', async () => {
    await createSession(api()).catch(() => {});
    await createSession(api()).catch(() => {});
    const refused = await api().post('/api/sessions', { data: {} });
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error).toMatchObject({
      code: 'too_many_sessions',
      message: expect.stringMatching(/^Too many sessions created: at most 2 a minute\./),
    });
  });

  test('a body over 16 KB answers 413 with its message', async () => {
    const refused = await api().post('/api/sessions', { data: { title: 'z'.repeat(20_000) } });
    expect(refused.status()).toBe(413);
    expect((await refused.json()).error).toEqual({
      code: 'too_large',
      message: 'The request body is larger than 16384 bytes.',
    });
  });
});

test.describe('with a small context budget', () => {
  // The system prompt and the tools take about 1,450 tokens; the rest is the history's.
  const BUDGET = 3_500;
  const state: { app?: NextServer; cookie?: string; api?: APIRequestContext } = {};
  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(90_000);
    state.app = await startNext({
      port: await freePort(),
      env: { ...modelEnv(fake, MODEL), QUANTA_CONTEXT_TOKENS: String(BUDGET) },
    });
    const { bearer, cookie } = await newIdentity(state.app.url);
    state.cookie = cookie;
    state.api = await apiAs(playwright, state.app.url, bearer);
  });
  test.afterAll(async () => {
    await state.api?.dispose();
    await state.app?.stop();
  });

  test('older turns are summarised once, shown as they are, and the answer uses the summary', async ({
    browser,
  }) => {
    const api = state.api as APIRequestContext;
    const app = state.app as NextServer;
    fake.respond(() => reply.text('Noted.'));
    const { id } = await createSession(api);
    // Six turns of about 320 tokens fit the budget; with the next, longer prompt they do not.
    for (let turn = 0; turn < 6; turn++) {
      await say(api, id, `Fact ${turn}: the bees of hive ${turn} ${'buzz '.repeat(250)}`);
    }
    expect(fake.requests.slice(-6).map(({ body }) => body.messages.length)).toEqual([
      2, 4, 6, 8, 10, 12,
    ]);
    const isSummary = ({ body }: RecordedRequest) =>
      contentText(body.messages[0]).startsWith('You summarise a conversation');
    // The older turns take two summary calls (each sends at most half the budget of them): the
    // first is held, so the chat can be seen summarising.
    let summaries = 0;
    fake.respond((request) => {
      if (!isSummary(request)) return reply.text('From the summary: six hives.');
      summaries += 1;
      return summaries === 1
        ? reply.held(['SUMMARY: hives 0 to 2, '], ['of bees.'])
        : reply.text('SUMMARY: six hives of bees, numbered 0 to 5.');
    });
    const mark = fake.requests.length;

    const context = await browser.newContext();
    await context.addCookies([{ name: 'quanta_id', value: state.cookie as string, url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/c/${id}`);
    const question = `How many hives were there? ${'Please count them carefully. '.repeat(70)}`;
    await page.getByRole('textbox', { name: 'Message' }).fill(question);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Summarising earlier messages for the model…')).toBeVisible();
    await page.screenshot({ path: 'test-results/compaction-summarising.png' });
    fake.release();
    await expect(page.getByRole('note')).toHaveText('Earlier messages summarised for the model');
    await expect(page.getByText('From the summary: six hives.')).toBeVisible();
    await page.screenshot({ path: 'test-results/compaction-summarised.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.getByRole('note')).toBeVisible();
    // Transitions fast-forwarded: the theme just changed under them.
    await page.screenshot({
      path: 'test-results/compaction-summarised-phone-dark.png',
      animations: 'disabled',
    });
    await context.close();

    // The model summarised the older turns, then got the summary and the newest turns only:
    // at most the budget, by the same four-characters-a-token measure.
    const sent = fake.since(mark);
    const summaryCalls = sent.filter(isSummary);
    expect(summaryCalls).toHaveLength(2);
    // The second part builds on the first's summary.
    expect(contentText(summaryCalls[1]?.body.messages[1])).toContain(
      'SUMMARY: hives 0 to 2, of bees.',
    );
    const answer = sent.filter((request) => !isSummary(request));
    expect(answer).toHaveLength(1);
    const body = (answer[0] as RecordedRequest).body;
    expect(contentText(body.messages[0])).toContain('SUMMARY: six hives of bees, numbered 0 to 5.');
    const conversation = JSON.stringify(body.messages);
    expect(conversation).not.toContain('Fact 0:');
    expect(conversation).toContain('Fact 5:');
    expect(conversation).toContain('How many hives were there?');
    expect(Math.ceil(JSON.stringify([body.messages, body.tools]).length / 4)).toBeLessThanOrEqual(
      BUDGET,
    );

    // The transcript keeps every message.
    const { messages } = await read(api, id);
    expect(messages).toHaveLength(14);
    expect(texts(messages[0])).toContain('Fact 0:');
  });
});

test('no request sent to the model ever carried a widget, its data or a note', () => {
  expect(fake.requests.length).toBeGreaterThan(0);
  expectNoUiLeak(fake.requests);
});

/**
 * The UI side of a tool result (label, data, the outcome object itself) stays on our side. The
 * conversation is what could carry it; the tool schemas (which may well name a `kind` or a
 * `data` argument) are left out of the check.
 */
function expectNoUiLeak(requests: RecordedRequest[]) {
  for (const { index, body } of requests) {
    const raw = JSON.stringify(body.messages);
    expect(raw, `request ${index}`).not.toContain('Open counter');
    // Keys of the widget data, of a UiContent and of a ToolOutcome, quoted or JSON-escaped.
    expect(raw, `request ${index}`).not.toMatch(
      /\\*"(count|kind|ui|data|modelText|isError)\\*"\s*:/,
    );
  }
}

function outputOf(chunks: UiChunk[], toolCallId: string): Outcome {
  const found = chunks.filter(
    (chunk) => chunk.type === 'tool-output-available' && chunk.toolCallId === toolCallId,
  );
  expect(found, `one tool-output-available for ${toolCallId}`).toHaveLength(1);
  return (found[0] as UiChunk).output as Outcome;
}

function toolParts(message: Message | undefined): Part[] {
  return (message?.parts ?? []).filter((part) => part.type.startsWith('tool-'));
}

/** A message's content as text, whether sent as a string or as text parts. */
function contentText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part as { text?: string }).text ?? '').join('');
  }
  return '';
}

/** The tool results of a request, by tool call id. */
function toolResults(messages: ChatMessage[]): Record<string, string> {
  return Object.fromEntries(
    messages
      .filter((message) => message.role === 'tool')
      .map((message) => [message.tool_call_id, contentText(message)]),
  );
}
