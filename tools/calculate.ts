import { all, create, type FactoryFunctionMap } from 'mathjs';
import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, ok } from '@/lib/tools';

/** The longest expression `calculate` takes, in characters. */
export const MAX_EXPRESSION = 500;

// Decimal arithmetic with 64 significant digits: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
// (`all` is typed optional, but mathjs always exports it.)
const math = create(all as FactoryFunctionMap, { number: 'BigNumber', precision: 64 });
const evaluate = math.evaluate;
// The expression language must not reach the functions that change or escape the parser.
const refuse = (name: string) => () => {
  throw new Error(`${name} is not available`);
};
math.import(
  Object.fromEntries(
    [
      'import',
      'createUnit',
      'evaluate',
      'parse',
      'compile',
      'simplify',
      'derivative',
      'resolve',
    ].map((name) => [name, refuse(name)]),
  ),
  { override: true },
);

export const calculate = defineTool({
  name: 'calculate',
  description:
    'Evaluates an arithmetic expression exactly (decimal, 64 significant digits): + - * / ^ %, ' +
    'parentheses, sqrt, sin, log, units such as "5 cm to inch". Use it instead of mental maths.',
  parameters: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION,
        description: 'e.g. 12 * (3 + 4)',
      },
    },
    required: ['expression'],
    additionalProperties: false,
  },
  execute(_agentId, _toolCallId, { expression }) {
    try {
      const value = evaluate(expression);
      if (typeof value === 'function') return err(`${expression} is a function, not a value`);
      return ok(
        `${expression} = ${math.format(value, { precision: 64, lowerExp: -12, upperExp: 24 })}`,
      );
    } catch (error) {
      return err(`cannot calculate ${expression}: ${(error as Error).message}`);
    }
  },
});

const MATH = /^[\d\s+\-*/^().,%a-z]+$/i;
// Arithmetic needs an operator, a function call or a unit conversion ("5 cm to inch");
// "what is the capital of France in 2024" is not a sum.
const OPERATION = /[+\-*/^%]|[a-z]\(|\d\s*[a-z]+\s+to\s+[a-z]+/i;

/** The demo model's way to `calculate`: "calculate …", "what is …". */
export const calculateIntent: Intent = {
  tool: calculate.name,
  example: 'calculate 12 * (3 + 4)',
  lead: 'Let me work that out.',
  // "12 * (3 + 4) = 84" as a sentence, with a times sign markdown will not take for emphasis.
  answer: ({ text }) => `${text.replaceAll('*', '×')}.`,
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
};
