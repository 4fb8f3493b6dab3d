import { afterEach, expect, it } from 'vitest';
import { register } from '@/instrumentation';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

it.each([
  ['QUANTA_ALLOWED_HOSTS', 'not a host!', /QUANTA_ALLOWED_HOSTS: "not a host!"/],
  ['QUANTA_PUBLIC_URL', 'ftp://example.com', /QUANTA_PUBLIC_URL/],
  ['QUANTA_MAX_ANSWER_BYTES', '-1', /QUANTA_MAX_ANSWER_BYTES must be a positive integer/],
  ['QUANTA_LIMIT_EVENT_STREAMS', 'many', /QUANTA_LIMIT_EVENT_STREAMS must be a positive integer/],
])(
  'a malformed %s stops the server at start-up, not at the first request',
  async (name, value, message) => {
    process.env.NEXT_RUNTIME = 'nodejs';
    process.env[name] = value;
    await expect(register()).rejects.toThrow(message);
  },
);
