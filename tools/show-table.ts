import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, type JsonValue, ok, widget } from '@/lib/tools';
import type { WidgetData } from '@/lib/widgets';
import { table } from '@/widgets/table/actions';
import { tableSpec } from '@/widgets/table/schema';
import { demoValues } from './demo-values';

type Table = WidgetData<typeof table>;

export const showTable = defineTool({
  name: 'show_table',
  description:
    'Shows the user a table they can sort (by clicking a column header) and filter. Give a ' +
    'title, the columns (name and type: string or number) and the rows, each an array of ' +
    'cells in column order (null for an empty cell). Use it for tabular data the user wants ' +
    'to look through or compare; you get back a short summary.',
  // The arguments are the table the widget shows, exactly.
  parameters: tableSpec,
  widget: table,
  execute(_agentId, _toolCallId, spec) {
    const problem = tableProblem(spec);
    if (problem) return err(problem);
    const { title, columns, rows } = spec;
    const rowCount = rows.length === 1 ? '1 row' : `${rows.length} rows`;
    const columnList = columns.map(({ name, type }) => `${name} (${type})`).join(', ');
    return ok(
      `Showed the user a table ${JSON.stringify(title)} of ${rowCount} and ` +
        `${columns.length === 1 ? '1 column' : `${columns.length} columns`}: ${columnList}. ` +
        `They can sort and filter it from the button "Open table: ${title}".`,
      widget(`Open table: ${title}`, table.id, spec satisfies Table),
    );
  },
});

/** Why the rows do not fit the columns (naming the row and column), or undefined when they do. */
function tableProblem({ columns, rows }: Table): string | undefined {
  const names = new Set<string>();
  for (const [index, { name }] of columns.entries()) {
    if (names.has(name)) {
      return `columns[${index}].name: ${JSON.stringify(name)} is already the name of another column; give each column a distinct name`;
    }
    names.add(name);
  }
  for (const [index, row] of rows.entries()) {
    if (row.length !== columns.length) {
      return `rows[${index}]: has ${row.length} ${row.length === 1 ? 'cell' : 'cells'} but the table has ${columns.length} ${columns.length === 1 ? 'column' : 'columns'} (${columns.map((column) => column.name).join(', ')}); use null for an empty cell`;
    }
    for (const [at, cell] of row.entries()) {
      const column = columns[at];
      if (cell === null || column === undefined || typeof cell === column.type) continue;
      return `rows[${index}][${at}]: column ${JSON.stringify(column.name)} holds ${column.type}s, got ${typeof cell} ${JSON.stringify(cell)}`;
    }
  }
  return undefined;
}

/** The demo model's way to `show_table`: the planets, or a sequence ("table of squares 1 to 5"). */
export const showTableIntent: Intent = {
  tool: showTable.name,
  example: 'show a table of the planets',
  lead: 'I’ll put that in a table.',
  answer: ({ args }) => {
    const rows = Array.isArray(args.rows) ? args.rows.length : 0;
    return `Here’s “${String(args.title)}”, ${rows === 1 ? '1 row' : `${rows} rows`} — open the table to sort and filter it.`;
  },
  match(clause) {
    if (!/\btable\b/i.test(clause)) return undefined;
    if (/\bplanets?\b/i.test(clause)) return structuredClone(PLANETS);
    const values = demoValues(clause);
    if (!values) return undefined;
    // A range alone ("table of 1 to 5") is one column: n and n again would share a name.
    const single = values.xName === values.yName;
    return {
      title: values.title,
      columns: [
        { name: values.xName, type: 'number' },
        ...(single ? [] : [{ name: values.yName, type: 'number' }]),
      ],
      rows: values.points.map(([x, y]) => (single ? [x] : [x, y])),
    };
  },
};

/** The one table the demo knows by name. */
const PLANETS: Record<string, JsonValue> = {
  title: 'The planets of the Solar System',
  columns: [
    { name: 'Planet', type: 'string' },
    { name: 'Type', type: 'string' },
    { name: 'Diameter (km)', type: 'number' },
    { name: 'Distance from the Sun (AU)', type: 'number' },
    { name: 'Orbital period (days)', type: 'number' },
  ],
  rows: [
    ['Mercury', 'Rocky', 4879, 0.39, 88],
    ['Venus', 'Rocky', 12104, 0.72, 224.7],
    ['Earth', 'Rocky', 12756, 1, 365.2],
    ['Mars', 'Rocky', 6792, 1.52, 687],
    ['Jupiter', 'Gas giant', 142984, 5.2, 4331],
    ['Saturn', 'Gas giant', 120536, 9.54, 10747],
    ['Uranus', 'Ice giant', 51118, 19.19, 30589],
    ['Neptune', 'Ice giant', 49528, 30.07, 59800],
  ],
};
