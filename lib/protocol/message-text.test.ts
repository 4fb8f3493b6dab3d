import { expect, it } from 'vitest';
import { messageText } from './message-text';

it('joins a message’s text parts, leaving tool calls and reasoning out', () => {
  expect(
    messageText({
      parts: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'first' },
        { type: 'tool-x', toolCallId: 'c', state: 'input-available', input: {} },
        { type: 'text', text: 'second' },
      ],
    }),
  ).toBe('first\nsecond');
});
