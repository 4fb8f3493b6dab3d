import { describe, expect, it, vi } from 'vitest';
import { memoryServices } from '@/tests/helpers/tool-services';
import { err, note, ok, type ToolResult, widget } from './result';
import { DEFAULT_TIMEOUT_MS, runTool } from './run-tool';
import { defineTool, type ToolContext } from './tool';
import { createToolSet } from './tool-set';

type Execute = (agentId: string, toolCallId: string, args: unknown, ctx: ToolContext) => unknown;

/** A one-tool set whose `execute` is the given function (cast so tests can return anything). */
function setWith(execute: Execute, options: { timeoutMs?: number; name?: string } = {}) {
  const tool = defineTool({
    name: options.name ?? 'probe',
    description: 'a tool under test',
    parameters: {
      type: 'object',
      properties: { count: { type: 'integer' }, unit: { enum: ['c', 'f'] } },
      additionalProperties: false,
    },
    execute: execute as () => ToolResult,
    timeoutMs: options.timeoutMs,
  });
  return createToolSet([tool]);
}

const context = { agentId: 'agent-1', sessionId: 'session-1', services: memoryServices() };
const call = (args: unknown = {}, toolName = 'probe') => ({ toolCallId: 'call-1', toolName, args });

describe('runTool', () => {
  it('passes agent id, tool call id, args and a context with signal, session id and services, in that order', async () => {
    const execute = vi.fn(() => ok('fine'));
    await runTool(setWith(execute), call({ count: 2 }), context);
    expect(execute).toHaveBeenCalledTimes(1);
    const [agentId, toolCallId, args, ctx] = execute.mock
      .calls[0] as unknown as Parameters<Execute>;
    expect([agentId, toolCallId, args]).toEqual(['agent-1', 'call-1', { count: 2 }]);
    expect(ctx.sessionId).toBe('session-1');
    expect(ctx.notes).toBe(context.services.notes);
    expect(ctx.widgets).toBe(context.services.widgets);
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    expect(ctx.signal.aborted).toBe(false);
  });

  it('ok(result): the result is the model text', async () => {
    expect(
      await runTool(
        setWith(() => ok('21 °C')),
        call(),
        context,
      ),
    ).toEqual({
      isError: false,
      modelText: '21 °C',
    });
  });

  it('ok(result, ui): ui comes back beside the model text, never inside it', async () => {
    const ui = widget('Open the chart', 'chart', { secret: 'WIDGET-DATA' });
    const outcome = await runTool(
      setWith(() => ok('plotted', ui)),
      call(),
      context,
    );
    expect(outcome).toEqual({ isError: false, modelText: 'plotted', ui });
    expect(outcome.modelText).not.toContain('WIDGET-DATA');
    expect(outcome.modelText).not.toContain('Open the chart');
  });

  it('a text note stays out of the model text as well', async () => {
    const outcome = await runTool(
      setWith(() => ok('saved', note('NOTE-FOR-HUMAN'))),
      call(),
      context,
    );
    expect(outcome).toEqual({
      isError: false,
      modelText: 'saved',
      ui: { kind: 'text', text: 'NOTE-FOR-HUMAN' },
    });
  });

  it('err(reason): the reason is the model text, marked as an error', async () => {
    expect(
      await runTool(
        setWith(() => err('city not found')),
        call(),
        context,
      ),
    ).toEqual({
      isError: true,
      modelText: 'city not found',
    });
  });

  it('works with an async execute', async () => {
    const outcome = await runTool(
      setWith(async () => ok('later')),
      call(),
      context,
    );
    expect(outcome).toEqual({ isError: false, modelText: 'later' });
  });

  it('an unknown tool name is an error naming it', async () => {
    expect(
      await runTool(
        setWith(() => ok('x')),
        call({}, 'rm_rf'),
        context,
      ),
    ).toEqual({
      isError: true,
      modelText: 'unknown tool: rm_rf',
    });
  });

  it('invalid arguments return the validation message and execute is not called', async () => {
    const execute = vi.fn(() => ok('ran'));
    expect(await runTool(setWith(execute), call({ count: 'two', unit: 'k' }), context)).toEqual({
      isError: true,
      modelText: 'count: must be integer; unit: must be one of: c, f',
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a synchronous throw',
      () => {
        throw new Error('disk on fire');
      },
      'disk on fire',
    ],
    ['a rejected promise', () => Promise.reject(new TypeError('bad socket')), 'bad socket'],
    [
      'a thrown string',
      () => {
        throw 'plain string';
      },
      'plain string',
    ],
    [
      'a thrown object',
      () => {
        throw { code: 'E42' };
      },
      '{"code":"E42"}',
    ],
    [
      'a thrown undefined',
      () => {
        throw undefined;
      },
      'undefined',
    ],
    [
      'a thrown bigint',
      () => {
        throw 10n;
      },
      '10',
    ],
    [
      'an Error without a message',
      () => {
        throw new RangeError();
      },
      'RangeError',
    ],
  ])('%s becomes an error result with its message', async (_case, execute, message) => {
    expect(await runTool(setWith(execute), call(), context)).toEqual({
      isError: true,
      modelText: message,
    });
  });

  it.each([
    ['undefined', undefined, 'expected ok(...) or err(...), got undefined'],
    ['a bare string', 'just text', 'expected ok(...) or err(...), got string'],
    ['an array', ['ok', 'x'], 'expected ok(...) or err(...), got array'],
    ['an unknown status', { status: 'maybe' }, 'expected ok(...) or err(...), got status "maybe"'],
    ['a non-string result', { status: 'ok', result: 42 }, 'result must be a string, got number'],
    ['a missing result', { status: 'ok' }, 'result must be a string, got undefined'],
    ['a null result', { status: 'ok', result: null }, 'result must be a string, got null'],
    [
      'a widget with an empty id',
      { status: 'ok', result: 'x', ui: { kind: 'widget', label: 'Open', widget: '' } },
      'ui.widget must be a widget id',
    ],
    [
      'a non-string reason',
      { status: 'error', reason: { why: 1 } },
      'reason must be a string, got object',
    ],
    [
      'a ui that is not an object',
      { status: 'ok', result: 'x', ui: 'note' },
      'ui must be an object, got string',
    ],
    [
      'an unknown ui kind',
      { status: 'ok', result: 'x', ui: { kind: 'toast' } },
      'ui.kind must be "text" or "widget", got "toast"',
    ],
    [
      'a note with non-string text',
      { status: 'ok', result: 'x', ui: { kind: 'text', text: 5 } },
      'ui.text must be a string, got number',
    ],
    [
      'a widget without a label',
      { status: 'ok', result: 'x', ui: { kind: 'widget', widget: 'w' } },
      'ui.label must be a non-empty string',
    ],
    [
      'a widget with an empty label',
      { status: 'ok', result: 'x', ui: { kind: 'widget', label: '', widget: 'w' } },
      'ui.label must be a non-empty string',
    ],
    [
      'a widget without an id',
      { status: 'ok', result: 'x', ui: { kind: 'widget', label: 'Open' } },
      'ui.widget must be a widget id',
    ],
    [
      'widget data that is not JSON',
      {
        status: 'ok',
        result: 'x',
        ui: { kind: 'widget', label: 'Open', widget: 'w', data: { rows: [1, () => 2] } },
      },
      'ui.data.rows[1] is not JSON',
    ],
    [
      'widget data with a non-finite number',
      {
        status: 'ok',
        result: 'x',
        ui: { kind: 'widget', label: 'Open', widget: 'w', data: Number.NaN },
      },
      'ui.data is not JSON',
    ],
    [
      'widget data that is a class instance',
      {
        status: 'ok',
        result: 'x',
        ui: { kind: 'widget', label: 'Open', widget: 'w', data: new Date(0) },
      },
      'ui.data is not JSON',
    ],
  ])(
    'a result of the wrong shape (%s) is an error naming what was wrong',
    async (_case, value, problem) => {
      expect(
        await runTool(
          setWith(() => value),
          call(),
          context,
        ),
      ).toEqual({
        isError: true,
        modelText: `probe returned an invalid result: ${problem}`,
      });
    },
  );

  it('accepts a widget button without data', async () => {
    const outcome = await runTool(
      setWith(() => ok('x', widget('Open', 'w'))),
      call(),
      context,
    );
    expect(outcome).toEqual({
      isError: false,
      modelText: 'x',
      ui: { kind: 'widget', label: 'Open', widget: 'w' },
    });
  });

  it('accepts widget data that is any JSON: nested objects, arrays, null', async () => {
    const data = { a: [1, 'two', null, { b: true }], c: Object.create(null) };
    const outcome = await runTool(
      setWith(() => ok('x', widget('Open', 'w', data))),
      call(),
      context,
    );
    expect(outcome).toEqual({
      isError: false,
      modelText: 'x',
      ui: { kind: 'widget', label: 'Open', widget: 'w', data },
    });
  });

  it('a tool that runs past its timeout is an error and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const set = setWith(
      (_a, _id, _args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {}); // never settles, ignores the signal
      },
      { timeoutMs: 20 },
    );
    expect(await runTool(set, call(), context)).toEqual({
      isError: true,
      modelText: 'probe timed out after 20 ms',
    });
    expect(signal?.aborted).toBe(true);
  });

  it('the default timeout is 60 seconds', async () => {
    vi.useFakeTimers();
    try {
      const pending = runTool(
        setWith(() => new Promise(() => {})),
        call(),
        context,
      );
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toEqual({ isError: true, modelText: 'probe timed out after 60000 ms' });
      expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an outside abort ends the call as an error and aborts the tool signal', async () => {
    const outer = new AbortController();
    let signal: AbortSignal | undefined;
    const set = setWith((_a, _id, _args, ctx) => {
      signal = ctx.signal;
      return new Promise(() => {});
    });
    const pending = runTool(set, call(), { ...context, signal: outer.signal });
    outer.abort();
    expect(await pending).toEqual({ isError: true, modelText: 'probe was aborted' });
    expect(signal?.aborted).toBe(true);
  });

  it('does not start a tool whose turn was already aborted', async () => {
    const execute = vi.fn(() => ok('ran'));
    const outcome = await runTool(setWith(execute), call(), {
      ...context,
      signal: AbortSignal.abort(),
    });
    expect(outcome).toEqual({ isError: true, modelText: 'probe was aborted' });
    expect(execute).not.toHaveBeenCalled();
  });

  it('a finished call leaves no listener on the outer signal and no timer behind', async () => {
    vi.useFakeTimers();
    try {
      const outer = new AbortController();
      const remove = vi.spyOn(outer.signal, 'removeEventListener');
      await runTool(
        setWith(() => ok('x')),
        call(),
        { ...context, signal: outer.signal },
      );
      expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a tool that honours its signal can stop cleanly on abort', async () => {
    const outer = new AbortController();
    const stopped = vi.fn();
    const set = setWith(
      (_a, _id, _args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            stopped();
            resolve(ok('partial'));
          });
        }),
    );
    const pending = runTool(set, call(), { ...context, signal: outer.signal });
    outer.abort();
    expect(await pending).toEqual({ isError: true, modelText: 'probe was aborted' });
    expect(stopped).toHaveBeenCalledTimes(1);
  });

  it('truncates a long result for the model', async () => {
    const outcome = await runTool(
      setWith(() => ok('a'.repeat(60_000))),
      call(),
      context,
    );
    expect(outcome.modelText).toBe(
      `${'a'.repeat(50_000)}\n[output truncated: 10000 bytes omitted]`,
    );
  });

  it('truncates a long error for the model as well', async () => {
    const outcome = await runTool(
      setWith(() => err('e'.repeat(50_001))),
      call(),
      context,
    );
    expect(outcome).toEqual({
      isError: true,
      modelText: `${'e'.repeat(50_000)}\n[output truncated: 1 bytes omitted]`,
    });
  });

  it('describes a binary result instead of sending it', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);
    expect(
      await runTool(
        setWith(() => ok(png)),
        call(),
        context,
      ),
    ).toEqual({
      isError: false,
      modelText: '[binary output, 9 bytes]',
    });
  });

  it('50 parallel calls of one tool return 50 independent results', async () => {
    const set = setWith(async (_agent, toolCallId, args) => {
      const { count } = args as { count: number };
      await new Promise((resolve) => setTimeout(resolve, (count * 7) % 13));
      return count % 5 === 0
        ? err(`bad ${count}`)
        : ok(`${toolCallId}:${count * count}`, note(`n${count}`));
    });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, count) =>
        runTool(set, { toolCallId: `call-${count}`, toolName: 'probe', args: { count } }, context),
      ),
    );
    expect(outcomes).toEqual(
      Array.from({ length: 50 }, (_, count) =>
        count % 5 === 0
          ? { isError: true, modelText: `bad ${count}` }
          : {
              isError: false,
              modelText: `call-${count}:${count * count}`,
              ui: { kind: 'text', text: `n${count}` },
            },
      ),
    );
  });
});
