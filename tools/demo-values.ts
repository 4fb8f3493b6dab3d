// The numbers the demo model's plot and table intents find in a message (see demoIntents in
// tools/index.ts).

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
export function demoValues(clause: string): DemoValues | undefined {
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
