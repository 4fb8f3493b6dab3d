// The scripted model's process (see scripted-model.ts): says its address, then answers its
// parent's `{ since }` with the request bodies it received after the first `since`.
import { startFakeOpenAI } from '../../tests/helpers/fake-openai';
import { scriptedAnswer } from './scripted-model';

const fake = await startFakeOpenAI();
fake.respond(scriptedAnswer);
process.on('message', (message) => {
  const { since } = message as { since: number };
  process.send?.({ requests: fake.since(since).map(({ body }) => body) });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ baseURL: fake.baseURL });
