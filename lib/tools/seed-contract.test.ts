/**
 * Planck's tool contract (Planck.Agent.Tool; docs/DESIGN.md, "The Planck tool contract", states
 * its rules and links the original) sentence by sentence. Each test quotes the behaviour it holds
 * Quanta to.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { memoryServices } from '@/tests/helpers/tool-services';
import {
  createToolSet,
  defineTool,
  err,
  note,
  ok,
  runTool,
  toModelTool,
  validateArgs,
  widget,
} from '.';

// The seed's own example, `Tool.new(name: "read_file", ...)`, in TypeScript.
const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async (_agentId, _id, { path }) => {
    try {
      return ok(await readFile(path));
    } catch (error) {
      return err((error as NodeJS.ErrnoException).code ?? String(error));
    }
  },
});

const context = { agentId: 'agent-7', sessionId: 'session-7', services: memoryServices() };

describe('Planck.Agent.Tool, as Quanta implements it', () => {
  it('"Tool.new(name: read_file, ...)": the example tool reads a file for the model', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quanta-seed-'));
    const path = join(dir, 'hello.txt');
    await writeFile(path, 'hello from disk\n');
    const set = createToolSet([readFileTool]);
    expect(
      await runTool(set, { toolCallId: 'c1', toolName: 'read_file', args: { path } }, context),
    ).toEqual({
      isError: false,
      modelText: 'hello from disk\n',
    });
    expect(
      await runTool(
        set,
        { toolCallId: 'c2', toolName: 'read_file', args: { path: join(dir, 'nope') } },
        context,
      ),
    ).toEqual({ isError: true, modelText: 'ENOENT' });
  });

  it('"The AI tool schema (name, description, parameters) is extracted ...; execute_fn stays agent-side"', () => {
    const set = createToolSet([readFileTool]);
    const sent = JSON.parse(JSON.stringify(set.modelTools));
    expect(sent).toEqual([
      {
        name: 'read_file',
        description: 'Read a file',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
        },
      },
    ]);
    expect(toModelTool(readFileTool)).not.toHaveProperty('execute');
  });

  it('"Receives the calling agent_id, the tool call id (an opaque string from the provider...)"', async () => {
    const seen = vi.fn(() => ok(''));
    const tool = defineTool({ ...readFileTool, execute: seen });
    const opaqueId = 'toolu_01:A/b c?=ü';
    await runTool(
      createToolSet([tool]),
      { toolCallId: opaqueId, toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(seen).toHaveBeenCalledWith('agent-7', opaqueId, { path: 'x' }, expect.anything());
  });

  it('"{:ok, result} — result is placed directly into the model\'s context as tool result text"', async () => {
    const text = '  spaced\tout\r\n  ünïcödé 🦀  ';
    const tool = defineTool({ ...readFileTool, execute: () => ok(text) });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome.modelText).toBe(text);
  });

  it('"{:ok, result, %{ui: ...}} — same, plus a UI side effect invisible to the model; the wrapper is stripped"', async () => {
    const tool = defineTool({
      ...readFileTool,
      execute: () =>
        ok('the answer', widget('LABEL-FOR-HUMAN', 'viewer', { payload: 'DATA-FOR-WIDGET' })),
    });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome.modelText).toBe('the answer');
    expect(outcome.isError === false && outcome.ui).toEqual({
      kind: 'widget',
      label: 'LABEL-FOR-HUMAN',
      widget: 'viewer',
      data: { payload: 'DATA-FOR-WIDGET' },
    });
  });

  it('"{:error, reason} — reason is placed into the model\'s context the same way result would be"', async () => {
    const reason = `${'r'.repeat(50_000)}tail`;
    const failing = defineTool({ ...readFileTool, execute: () => err(reason) });
    const passing = defineTool({ ...readFileTool, name: 'ok_tool', execute: () => ok(reason) });
    const set = createToolSet([failing, passing]);
    const asError = await runTool(
      set,
      { toolCallId: 'a', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    const asResult = await runTool(
      set,
      { toolCallId: 'b', toolName: 'ok_tool', args: { path: 'x' } },
      context,
    );
    expect(asError.isError).toBe(true);
    expect(asError.modelText).toBe(asResult.modelText);
  });

  it('"All text values must be strings": a number where text belongs is refused', async () => {
    const tool = defineTool({
      ...readFileTool,
      execute: () => ok('x', note(42 as unknown as string)),
    });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome).toEqual({
      isError: true,
      modelText: 'read_file returned an invalid result: ui.text must be a string, got number',
    });
  });

  it('"Exceptions and exit signals are caught by the agent and converted to error strings automatically"', async () => {
    const throwing = defineTool({
      ...readFileTool,
      execute: () => {
        throw new Error('boom');
      },
    });
    const hanging = defineTool({
      ...readFileTool,
      name: 'hang',
      execute: () => new Promise<never>(() => {}),
    });
    const set = createToolSet([throwing, hanging]);
    const stop = new AbortController();
    const pending = runTool(
      set,
      { toolCallId: 'h', toolName: 'hang', args: { path: 'x' } },
      { ...context, signal: stop.signal },
    );
    stop.abort();
    expect(
      await runTool(set, { toolCallId: 't', toolName: 'read_file', args: { path: 'x' } }, context),
    ).toEqual({
      isError: true,
      modelText: 'boom',
    });
    expect(await pending).toEqual({ isError: true, modelText: 'hang was aborted' });
  });

  it('":widget — optional, nil for most; list_widgets derives the widget list from tools that set it"', () => {
    const viewer = { id: 'viewer', title: 'Viewer', data: {} };
    const open = defineTool({ ...readFileTool, name: 'open', widget: viewer });
    const set = createToolSet([readFileTool, open]);
    expect(readFileTool.widget).toBeUndefined();
    expect(set.widgets).toEqual([viewer]);
  });

  it('"%{kind: :text, text: text} — a UI-only note shown in the chat, invisible to the LLM, no widget involved"', async () => {
    const tool = defineTool({
      ...readFileTool,
      execute: () => ok('saved', note('Saved to notes')),
    });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome).toEqual({
      isError: false,
      modelText: 'saved',
      ui: { kind: 'text', text: 'Saved to notes' },
    });
    expect(outcome.modelText).not.toContain('Saved to notes');
  });

  it('"data is an opaque initial snapshot ... optional, may be nil"', async () => {
    const withNull = defineTool({
      ...readFileTool,
      execute: () => ok('x', widget('Open', 'viewer', null)),
    });
    const outcome = await runTool(
      createToolSet([withNull]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome).toEqual({
      isError: false,
      modelText: 'x',
      ui: { kind: 'widget', label: 'Open', widget: 'viewer', data: null },
    });
  });

  it('"validate_args returns :ok or {:error, message} suitable for returning directly from an execute_fn"', async () => {
    const validation = validateArgs(readFileTool, { path: 7 });
    expect(validation).toEqual({ valid: false, message: 'path: must be string' });
    const tool = defineTool({
      ...readFileTool,
      execute: () => (validation.valid ? ok('fine') : err(validation.message)),
    });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: { path: 'x' } },
      context,
    );
    expect(outcome).toEqual({ isError: true, modelText: 'path: must be string' });
  });

  it('"Called automatically by the agent before invoking execute_fn, so individual tools do not need to duplicate this check"', async () => {
    const execute = vi.fn(() => ok('never'));
    const tool = defineTool({ ...readFileTool, execute });
    const outcome = await runTool(
      createToolSet([tool]),
      { toolCallId: 'c', toolName: 'read_file', args: {} },
      context,
    );
    expect(outcome).toEqual({ isError: true, modelText: 'path: is required' });
    expect(execute).not.toHaveBeenCalled();
  });
});
