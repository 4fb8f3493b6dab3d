// Writes sessions of many messages straight into a data folder's PGlite, for the big-session
// e2e test and bench: a turn at a time through the API would take minutes for 1,000 messages.
// The server must not have the folder open (PGlite is single-process).
//   QUANTA_SECRET=… npx tsx --conditions=react-server tests/helpers/seed-sessions.mts <data dir> <count>…
// Prints `{ cookie, sessions: [{ id, count }] }`: the owner's identity cookie (signed with
// QUANTA_SECRET) and one session per count.
import { cookieFor } from '../../lib/auth/identity';
import { openDatabase } from '../../lib/db/client';
import { appendMessages, type NewMessage } from '../../lib/db/messages';
import { createSession } from '../../lib/db/sessions';
import { newId } from '../../lib/ids';

const [directory, ...counts] = process.argv.slice(2);
if (!directory || counts.length === 0) throw new Error('usage: seed-sessions.mts <dir> <count>…');

/** A question and an answer about as long as a real turn's: markdown, a list, code, a tool. */
function turn(index: number): NewMessage[] {
  const n = index + 1;
  const toolCallId = `call_${newId()}`;
  return [
    {
      role: 'user',
      parts: [{ type: 'text', text: `Question ${n}: what is ${n} * (3 + 4), and why?` }],
    },
    {
      role: 'assistant',
      parts: [
        {
          type: 'tool-calculate',
          toolCallId,
          state: 'output-available',
          input: { expression: `${n} * (3 + 4)` },
          output: { isError: false, modelText: String(n * 7), durationMs: 2 },
        },
        {
          type: 'text',
          state: 'done',
          text: [
            `## Answer ${n}`,
            '',
            `${n} × (3 + 4) = **${n * 7}**. The brackets go first: 3 + 4 is 7, and ${n} sevens`,
            `make ${n * 7}. Multiplication distributes over addition, so ${n} × 3 + ${n} × 4`,
            `gives the same ${n * 7}, which is a handy way to check the result in your head.`,
            '',
            '- brackets before multiplication',
            '- multiplication before addition',
            '- left to right otherwise',
            '',
            '```ts',
            `const answer = ${n} * (3 + 4); // ${n * 7}`,
            'console.log(answer);',
            '```',
            '',
            `That is all there is to it for question ${n}.`,
          ].join('\n'),
        },
      ],
      metadata: {
        model: 'demo:offline',
        status: 'complete',
        usage: { inputTokens: 120 + n, outputTokens: 80 },
      },
    },
  ];
}

const { db, close } = await openDatabase({ directory });
const ownerId = newId();
const sessions = [];
for (const count of counts.map(Number)) {
  const session = await createSession(db, { ownerId, title: `${count} messages` });
  const all = Array.from({ length: Math.ceil(count / 2) }, (_, index) => turn(index)).flat();
  await appendMessages(db, session.id, all.slice(0, count));
  sessions.push({ id: session.id, count });
}
await close();
console.log(JSON.stringify({ cookie: cookieFor(ownerId), sessions }));
