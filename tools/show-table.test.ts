import { describe, expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { validate } from '@/lib/schema';
import { runTool, validateArgs } from '@/lib/tools';
import { memoryServices } from '@/tests/helpers/tool-services';
import { moons } from '@/tests/helpers/widgets';
import { table } from '@/widgets/table/actions';
import { MAX_COLUMNS, MAX_ROWS } from '@/widgets/table/schema';
import { demoIntents, toolSet } from '.';
import { showTable } from './show-table';

const context = { agentId: 'a1', sessionId: 's1', services: memoryServices() };
const run = (args: unknown) =>
  runTool(toolSet, { toolCallId: 'c1', toolName: 'show_table', args }, context);

describe('show_table', () => {
  it('is shipped, paired with the table widget in a modal', () => {
    expect(toolSet.get('show_table')).toBe(showTable);
    expect(showTable.widget).toBe(table);
    expect(table.container).toBe('modal');
  });

  it('tells the model what it showed and gives the user a button with the table', async () => {
    const outcome = await run(moons);
    expect(outcome).toEqual({
      isError: false,
      modelText:
        'Showed the user a table "Moons" of 3 rows and 2 columns: Planet (string), Moons (number). ' +
        'They can sort and filter it from the button "Open table: Moons".',
      ui: { kind: 'widget', label: 'Open table: Moons', widget: 'table', data: moons },
    });
    if (outcome.isError || outcome.ui?.kind !== 'widget') throw new Error('a widget button');
    expect(validate(table.data, outcome.ui.data)).toEqual({ valid: true });
  });

  it('accepts a table with no rows', async () => {
    const outcome = await run({
      title: 'Empty',
      columns: [{ name: 'A', type: 'string' }],
      rows: [],
    });
    expect(outcome.modelText).toBe(
      'Showed the user a table "Empty" of 0 rows and 1 column: A (string). ' +
        'They can sort and filter it from the button "Open table: Empty".',
    );
  });

  it('refuses invalid arguments with a message naming each path, before running', async () => {
    const cases: [unknown, string][] = [
      [{ columns: moons.columns, rows: [] }, 'title: is required'],
      [{ ...moons, columns: [] }, 'columns: must NOT have fewer than 1 items'],
      [
        { ...moons, columns: [{ name: 'When', type: 'date' }], rows: [] },
        'columns[0].type: must be one of: string, number',
      ],
      [
        {
          ...moons,
          columns: Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => ({
            name: `c${i}`,
            type: 'number',
          })),
          rows: [],
        },
        `columns: must NOT have more than ${MAX_COLUMNS} items`,
      ],
      [
        { ...moons, rows: Array.from({ length: MAX_ROWS + 1 }, () => ['x', 1]) },
        `rows: must NOT have more than ${MAX_ROWS} items`,
      ],
      [
        { ...moons, rows: [['Earth', true]] },
        'rows[0][1]: must be string; rows[0][1]: must be number; rows[0][1]: must be null; rows[0][1]: must match a schema in anyOf',
      ],
      [{ ...moons, rows: 'Earth, 1' }, 'rows: must be array'],
    ];
    for (const [args, message] of cases) {
      expect(await run(args), message).toEqual({ isError: true, modelText: message });
    }
  });

  it('refuses rows that do not match the columns, naming the row and the column', async () => {
    expect(await run({ ...moons, rows: [['Earth', 1], ['Mars']] })).toEqual({
      isError: true,
      modelText:
        'rows[1]: has 1 cell but the table has 2 columns (Planet, Moons); use null for an empty cell',
    });
    expect(await run({ ...moons, rows: [['Earth', 1, 'blue']] })).toEqual({
      isError: true,
      modelText:
        'rows[0]: has 3 cells but the table has 2 columns (Planet, Moons); use null for an empty cell',
    });
    expect(
      await run({
        ...moons,
        rows: [
          ['Earth', 1],
          ['Mars', 'two'],
        ],
      }),
    ).toEqual({
      isError: true,
      modelText: 'rows[1][1]: column "Moons" holds numbers, got string "two"',
    });
    expect(await run({ ...moons, rows: [[3, 1]] })).toEqual({
      isError: true,
      modelText: 'rows[0][0]: column "Planet" holds strings, got number 3',
    });
  });

  it('refuses two columns of one name', async () => {
    expect(
      await run({
        ...moons,
        columns: [moons.columns[0], moons.columns[0]],
        rows: [],
      }),
    ).toEqual({
      isError: true,
      modelText:
        'columns[1].name: "Planet" is already the name of another column; give each column a distinct name',
    });
  });
});

describe('the demo model asking for a table', () => {
  const TABLE = new Set(['show_table']);
  const argsFor = (text: string) => {
    const calls = recognise(text, demoIntents, TABLE);
    expect(calls, text).toHaveLength(1);
    const [call] = calls;
    if (!call) throw new Error(`no table for ${text}`);
    expect(call.tool).toBe('show_table');
    expect(validateArgs(showTable, call.args), text).toEqual({ valid: true });
    return call.args;
  };

  it('shows the planets', async () => {
    const args = argsFor('show a table of the planets');
    expect(args).toMatchObject({ title: 'The planets of the Solar System' });
    const outcome = await run(args);
    expect(outcome.isError).toBe(false);
    expect(outcome.modelText).toContain('of 8 rows and 5 columns: Planet (string), Type (string)');
  });

  it('tabulates a sequence', async () => {
    expect(argsFor('table of squares 1 to 5')).toEqual({
      title: 'Squares of 1 to 5',
      columns: [
        { name: 'n', type: 'number' },
        { name: 'n²', type: 'number' },
      ],
      rows: [
        [1, 1],
        [2, 4],
        [3, 9],
        [4, 16],
        [5, 25],
      ],
    });
    for (const text of ['a table of the cubes', 'table 4, 8, 15, 16, 23, 42', 'table of 5 to 1']) {
      expect((await run(argsFor(text))).isError, text).toBe(false);
    }
  });

  it('does not show a table it has no data for', () => {
    for (const text of ['show a table of my expenses', 'the table is set', 'plot the planets']) {
      expect(recognise(text, demoIntents, TABLE), text).toEqual([]);
    }
  });

  it('answers a plot and a table in one message', () => {
    const calls = recognise(
      'plot the squares of 1 to 5 and show a table of the planets',
      demoIntents,
      new Set(['plot', 'show_table']),
    );
    expect(calls.map((call) => call.tool)).toEqual(['plot', 'show_table']);
  });
});
