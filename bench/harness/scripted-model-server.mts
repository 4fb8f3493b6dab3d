// The scripted model's process (see scripted-model.ts): says its address, then answers its
// parent's `{ since }` with the request bodies it received after the first `since`.
import { reply, startFakeOpenAI } from '../../tests/helpers/fake-openai';
import { askIn, TOKEN } from './scripted-model';

const fake = await startFakeOpenAI();
fake.respond(({ body }) => {
  const asked = askIn(JSON.stringify(body.messages.findLast(({ role }) => role === 'user') ?? ''));
  if (!asked) return reply.text('Noted.');
  return reply.paced(asked.paceMs, ...Array<string>(asked.tokens).fill(TOKEN));
});
process.on('message', (message) => {
  const { since } = message as { since: number };
  process.send?.({ requests: fake.since(since).map(({ body }) => body) });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ baseURL: fake.baseURL });
