import type { JsonValue } from '../protocol';

/** A request the demo model recognises in a user's words, and the tool call that answers it. */
export type Intent = {
  tool: string;
  /** Shown in the demo's introduction, so a visitor knows what to try. */
  example: string;
  /** The arguments for the tool when `clause` asks for it. */
  match(clause: string): Record<string, JsonValue> | undefined;
};

const MATH = /^[\d\s+\-*/^().,%a-z]+$/i;
// Arithmetic needs an operator, a function call or a unit conversion ("5 cm to inch");
// "what is the capital of France in 2024" is not a sum.
const OPERATION = /[+\-*/^%]|[a-z]\(|\d\s*[a-z]+\s+to\s+[a-z]+/i;
/** `calculate` takes at most this many characters. */
const MAX_EXPRESSION = 500;

// Explicit requests (a URL to fetch, a note to save, a task) come before the intents that
// recognise a mere keyword, so "remember that the counter is at 3" saves a note.
export const intents: readonly Intent[] = [
  {
    tool: 'calculate',
    example: 'calculate 12 * (3 + 4)',
    match(clause) {
      const found = /\b(?:calculate|compute|evaluate|what(?:['’]s| is))\s+(.+?)\s*[?=]*$/i.exec(
        clause,
      );
      const expression = found?.[1];
      return expression &&
        expression.length <= MAX_EXPRESSION &&
        MATH.test(expression) &&
        OPERATION.test(expression) &&
        /\d/.test(expression)
        ? { expression }
        : undefined;
    },
  },
  {
    tool: 'fetch_url',
    example: 'fetch https://example.com',
    match(clause) {
      const found =
        /\b(?:fetch|read|open|load|visit|summari[sz]e)\b.*?<?(https?:\/\/[^\s<>"'`]+)/i.exec(
          clause,
        );
      // "Read https://example.com." ends a sentence: the full stop is not part of the URL.
      const url = found?.[1]?.replace(/[.,;:!?)\]]+$/, '');
      return url && URL.canParse(url) ? { url } : undefined;
    },
  },
  {
    tool: 'save_note',
    example: 'save a note: buy milk',
    match(clause) {
      // "save a note: buy milk", "remember that …", "note that …": the note is what follows.
      const found =
        /\b(?:(?:save|add|make|take)\s+(?:a\s+)?note(?:\s+that)?|note\s+that|remember\s+that)\b[\s:,-]*(.*)$/i.exec(
          clause,
        );
      // A full stop ends the sentence, not the note; `save_note` keeps at most 2,000 characters.
      const text = found?.[1]?.replace(/[\s.!]+$/, '');
      return text && Array.from(text).length <= 2000 ? { text } : undefined;
    },
  },
  {
    tool: 'add_task',
    example: 'add a task: water the plants',
    match(clause) {
      const found = /\badd (?:a )?(?:new )?task(?:\s*:\s*|\s+(?:to\s+)?)(.+)$/i.exec(clause);
      const title = found?.[1]?.trim();
      return title && title.length <= 200 ? { title } : undefined;
    },
  },
  {
    tool: 'list_tasks',
    example: 'list my tasks',
    match(clause) {
      return /\b(?:list|show)\b.*\b(?:tasks|task board)\b/i.test(clause) ? {} : undefined;
    },
  },
  {
    tool: 'update_task',
    example: 'move t1 to done',
    match(clause) {
      const moved = /\bmove (?:task )?(t\d+) to (todo|doing|done)\b/i.exec(clause);
      if (moved)
        return { id: moved[1]?.toLowerCase() ?? '', column: moved[2]?.toLowerCase() ?? '' };
      const deleted = /\b(?:delete|remove) (?:task )?(t\d+)\b/i.exec(clause);
      return deleted ? { id: deleted[1]?.toLowerCase() ?? '', delete: true } : undefined;
    },
  },
  {
    tool: 'show_counter',
    example: 'show me a counter starting at 3',
    match(clause) {
      if (!/\bcounter\b/i.test(clause)) return undefined;
      const start = /-?\d+/.exec(clause);
      const args: Record<string, JsonValue> = start ? { start: Number(start[0]) } : {};
      return args;
    },
  },
  {
    tool: 'plot',
    example: 'plot the squares of 1 to 5',
    match(clause) {
      if (!/\b(?:plot|chart|graph)\b/i.test(clause)) return undefined;
      const values = demoValues(clause);
      if (!values) return undefined;
      const kind = /\bbars?\b/i.test(clause)
        ? 'bar'
        : /\bscatter\b/i.test(clause)
          ? 'scatter'
          : 'line';
      return {
        kind,
        title: values.title,
        xLabel: values.xName,
        yLabel: values.yName,
        series: [{ name: values.yName, points: values.points.map(([x, y]) => ({ x, y })) }],
      };
    },
  },
  {
    tool: 'show_table',
    example: 'show a table of the planets',
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
  },
];

/** The most points the demo puts in a chart or a table: a range beyond it is cut short. */
const MAX_DEMO_POINTS = 50;
/** Numbers the demo takes from a message stay this small, so what it computes stays finite. */
const MAX_DEMO_NUMBER = 1_000_000;

const SEQUENCES: readonly { words: RegExp; title: string; name: string; f(n: number): number }[] = [
  { words: /\bsquare\s+roots?\b|\bsqrt\b/i, title: 'Square roots', name: '√n', f: Math.sqrt },
  {
    words: /\bsquares?\b|\bsquared\b|\b[nx]\s*\^\s*2\b|[nx]²/i,
    title: 'Squares',
    name: 'n²',
    f: (n) => n * n,
  },
  {
    words: /\bcubes?\b|\bcubed\b|\b[nx]\s*\^\s*3\b|[nx]³/i,
    title: 'Cubes',
    name: 'n³',
    f: (n) => n ** 3,
  },
  { words: /\bpowers?\s+of\s+(?:2|two)\b/i, title: 'Powers of 2', name: '2ⁿ', f: (n) => 2 ** n },
];

type DemoValues = { title: string; xName: string; yName: string; points: [number, number][] };

/**
 * The numbers a clause asks to plot or tabulate: a known sequence ("squares of 1 to 5", "cubes
 * up to 4"; 1 to 10 when no range is given), a range alone ("1 to 5"), or the numbers it lists
 * ("3, 1, 4, 1, 5"). Undefined when it gives none the demo can use.
 */
function demoValues(clause: string): DemoValues | undefined {
  const sequence = SEQUENCES.find((known) => known.words.test(clause));
  // "2 to 5" and "1-5" are ranges; "powers of 2" names a sequence, not a number to use.
  const text = sequence ? clause.replace(/\bpowers?\s+of\s+(?:2|two)\b/i, '') : clause;
  const range = /(-?\d+)\s*(?:to|through|\.\.|-|–)\s*(-?\d+)/i.exec(text);
  const upTo = /\b(?:up\s+to|first|until)\s+(\d+)\b/i.exec(text);
  let bounds: [number, number] | undefined;
  if (range) bounds = [Number(range[1]), Number(range[2])];
  else if (upTo) bounds = [1, Number(upTo[1])];
  else if (sequence) bounds = [1, 10];

  if (bounds) {
    if (bounds.some((bound) => Math.abs(bound) > MAX_DEMO_NUMBER)) return undefined;
    const from = Math.min(...bounds);
    const to = Math.min(Math.max(...bounds), from + MAX_DEMO_POINTS - 1);
    const f = sequence?.f ?? ((n: number) => n);
    const points: [number, number][] = [];
    for (let n = from; n <= to; n += 1) {
      const y = f(n);
      if (Number.isFinite(y)) points.push([n, y]);
    }
    if (points.length === 0) return undefined;
    return {
      title: `${sequence?.title ?? 'Numbers'} of ${from} to ${to}`,
      xName: 'n',
      yName: sequence?.name ?? 'n',
      points,
    };
  }
  const listed = (text.match(/-?\d+(?:\.\d+)?/g) ?? []).slice(0, MAX_DEMO_POINTS).map(Number);
  if (listed.length === 0 || listed.some((value) => Math.abs(value) > MAX_DEMO_NUMBER)) {
    return undefined;
  }
  return {
    title: 'Values',
    xName: 'Position',
    yName: 'Value',
    points: listed.map((value, index) => [index + 1, value]),
  };
}

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

/**
 * The tool calls a message asks for: each clause ("… and …", sentences) may ask for one, so a
 * message can ask for several at once (they run in parallel). Only tools in `available`.
 */
export function recognise(
  text: string,
  available: ReadonlySet<string>,
): { tool: string; args: Record<string, JsonValue> }[] {
  const calls = [];
  for (const clause of text.split(/\s+and\s+|[.;!?]\s+|\n+/i)) {
    for (const intent of intents) {
      if (!available.has(intent.tool)) continue;
      const args = intent.match(clause.trim());
      if (args) {
        calls.push({ tool: intent.tool, args });
        break;
      }
    }
  }
  return calls;
}
