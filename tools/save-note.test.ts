import { describe, expect, it, vi } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { runTool, type Tool, type ToolServices, validateArgs } from '@/lib/tools';
import { memoryServices } from '@/tests/helpers/tool-services';
import { demoIntents, toolSet } from '.';
import { MAX_NOTE_LENGTH, saveNote, shorten } from './save-note';

const call = (args: unknown) => ({ toolCallId: 'c1', toolName: 'save_note', args });
const run = (services: ToolServices, args: unknown) =>
  runTool(toolSet, call(args), { agentId: 'a1', sessionId: 's1', services });

describe('save_note', () => {
  it('stores the note on the session and shows the user a note the model never sees', async () => {
    const services = memoryServices();
    const outcome = await run(services, { text: 'buy milk' });
    expect(outcome).toEqual({
      isError: false,
      modelText: 'Saved the note: "buy milk". The session has 1 note.',
      ui: { kind: 'text', text: 'Saved to notes' },
    });
    expect(outcome.modelText).not.toContain('Saved to notes');
    expect(services.kept).toEqual(['buy milk']);
  });

  it('counts the session’s notes', async () => {
    const services = memoryServices();
    await run(services, { text: 'one' });
    const outcome = await run(services, { text: 'two' });
    expect(outcome.modelText).toBe('Saved the note: "two". The session has 2 notes.');
    expect(services.kept).toEqual(['one', 'two']);
  });

  it('keeps the whole note but tells the model a one-line summary of about 80 characters', async () => {
    const services = memoryServices();
    const text = `Ideas:\n${'word '.repeat(397)}finished`;
    expect(text.length).toBe(MAX_NOTE_LENGTH);
    const outcome = await run(services, { text });
    expect(outcome.modelText).toBe(`Saved the note: "${shorten(text)}". The session has 1 note.`);
    expect(shorten(text)).toBe(`Ideas: ${'word '.repeat(14)}wo…`);
    expect(services.kept).toEqual([text]);
  });

  it('trims the note and refuses one with no words', async () => {
    const services = memoryServices();
    await run(services, { text: '  call mum \n' });
    expect(await run(services, { text: ' \n\t' })).toEqual({
      isError: true,
      modelText: 'cannot save an empty note: text has no words',
    });
    expect(services.kept).toEqual(['call mum']);
  });

  it('refuses invalid arguments before storing anything', async () => {
    const services = memoryServices();
    for (const [args, message] of [
      [{}, 'text: is required'],
      [{ text: '' }, 'text: must NOT have fewer than 1 characters'],
      [{ text: 'x'.repeat(MAX_NOTE_LENGTH + 1) }, 'text: must NOT have more than 2000 characters'],
      [{ text: 7 }, 'text: must be string'],
      [{ text: 'a', tag: 'b' }, 'tag: is not allowed'],
    ] as const) {
      expect(await run(services, args), JSON.stringify(args)).toEqual({
        isError: true,
        modelText: message,
      });
    }
    expect(services.kept).toEqual([]);
  });
});

describe('save_note when the notes cannot be stored', () => {
  // As Drizzle reports a failure: its message quotes the query, its cause is the driver's.
  const failure = new Error(
    'Failed query: insert into "notes" ("id", "session_id", "text") values ($1, $2, $3)\n' +
      'params: n1,s1,secret note',
    {
      cause: new Error(
        'connection to server at "db.internal" (10.0.0.5), port 5432 failed: ' +
          'password authentication failed for user "quanta"',
      ),
    },
  );

  it.each([
    ['adding the note fails', { add: () => Promise.reject(failure), count: async () => 0 }],
    ['counting the notes fails', { add: async () => {}, count: () => Promise.reject(failure) }],
  ])('tells the model only that it could not save when %s, and logs why', async (_, notes) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const outcome = await run({ ...memoryServices(), notes }, { text: 'secret note' });
      expect(outcome).toEqual({
        isError: true,
        modelText: 'could not save the note; try again later',
      });
      for (const part of ['insert', 'notes', 'params', 'db.internal', '10.0.0.5', 'password']) {
        expect(outcome.modelText).not.toContain(part);
      }
      expect(logged).toHaveBeenCalledWith('save_note: saving a note failed', failure);
    } finally {
      logged.mockRestore();
    }
  });
});

describe('save_note as shipped', () => {
  it('is in the tool set, with a description and no widget', () => {
    expect(toolSet.get('save_note')).toBe(saveNote);
    expect(saveNote.widget).toBeUndefined();
    expect(saveNote.description).toMatch(/note/);
  });
});

describe('shorten', () => {
  it('keeps short text, on one line', () => {
    expect(shorten('buy milk')).toBe('buy milk');
    expect(shorten(' a\n\n b\tc ')).toBe('a b c');
    expect(shorten('x'.repeat(80))).toBe('x'.repeat(80));
  });

  it('cuts long text to 80 characters with an ellipsis, never inside a character', () => {
    expect(shorten('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    expect(Array.from(shorten('🦀'.repeat(100)))).toHaveLength(80);
    expect(shorten('🦀'.repeat(100))).toBe(`${'🦀'.repeat(79)}…`);
  });
});

describe('the demo model’s save_note intent', () => {
  const NOTES = new Set(['save_note']);
  const argsFor = (text: string) => {
    const calls = recognise(text, demoIntents, NOTES);
    expect(calls, text).toHaveLength(1);
    const [found] = calls;
    if (!found) throw new Error(`no note for ${text}`);
    expect(found.tool).toBe('save_note');
    expect(validateArgs(saveNote as Tool, found.args), text).toEqual({ valid: true });
    return found.args;
  };

  it('saves what follows the phrase', () => {
    for (const [text, note] of [
      ['save a note: buy milk', 'buy milk'],
      ['Save note buy milk', 'buy milk'],
      ['please add a note that the meeting moved to 3pm', 'the meeting moved to 3pm'],
      ['Remember that my cat is called Felix.', 'my cat is called Felix'],
      ['remember that: the code is in the drawer!', 'the code is in the drawer'],
      ['Note that the server restarts at midnight', 'the server restarts at midnight'],
      ['take note that Ana prefers tea', 'Ana prefers tea'],
    ] as const) {
      expect(argsFor(text), text).toEqual({ text: note });
    }
  });

  it('saves one note per clause', () => {
    expect(recognise('note that a. Remember that b', demoIntents, NOTES)).toEqual([
      { tool: 'save_note', args: { text: 'a' } },
      { tool: 'save_note', args: { text: 'b' } },
    ]);
  });

  it('has an example the demo can show, which it recognises', () => {
    const intent = demoIntents.find((candidate) => candidate.tool === 'save_note');
    expect(intent?.example).toBe('save a note: buy milk');
    expect(argsFor(intent?.example ?? '')).toEqual({ text: 'buy milk' });
  });

  it('asks for nothing without a note, or for one too long to save', () => {
    for (const text of [
      'remember that',
      'note that.',
      'save a note',
      'I remember the old days',
      'these notes that you wrote',
      `note that ${'x'.repeat(MAX_NOTE_LENGTH + 1)}`,
    ]) {
      expect(recognise(text, demoIntents, NOTES), text).toEqual([]);
    }
    expect(argsFor(`note that ${'x'.repeat(MAX_NOTE_LENGTH)}`)).toEqual({
      text: 'x'.repeat(MAX_NOTE_LENGTH),
    });
  });

  it('only when save_note is available', () => {
    expect(recognise('save a note: buy milk', demoIntents, new Set(['calculate']))).toEqual([]);
  });
});
