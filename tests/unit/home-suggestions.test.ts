import { expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { demoIntents, toolSet } from '@/tools';
import { SUGGESTIONS } from '../../components/suggestions';

// The home page's chips are for trying Quanta without a key: the offline demo model must
// recognise each one, and between them they show every kind of tool.
it('words each suggestion so the demo model calls the tool it is there to show', () => {
  const shipped = new Set(toolSet.tools.map((tool) => tool.name));
  const called = SUGGESTIONS.map(({ prompt }) =>
    recognise(prompt, demoIntents, shipped).map(({ tool }) => tool),
  );
  expect(called).toEqual([
    ['show_counter'],
    ['add_task'],
    ['plot'],
    ['show_table'],
    ['calculate'],
    ['fetch_url'],
  ]);
});
