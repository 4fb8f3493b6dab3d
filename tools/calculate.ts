import { all, create, type FactoryFunctionMap } from 'mathjs';
import { defineTool, err, ok } from '@/lib/tools';

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
        maxLength: 500,
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
