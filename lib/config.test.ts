import { expect, it } from 'vitest';
import { logBatchMs } from './config';

it("batches a turn's log every 100 ms where other instances follow it, every second alone", () => {
  expect(logBatchMs({ REDIS_URL: 'redis://127.0.0.1:6379' })).toBe(100);
  expect(logBatchMs({})).toBe(1_000);
  expect(logBatchMs({ REDIS_URL: '' })).toBe(1_000);
});
