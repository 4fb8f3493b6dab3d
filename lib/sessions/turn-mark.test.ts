import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';

const renewTurn = vi.fn(async (_db: Db, _sessionId: string, _turnId: string) => true);
vi.mock('../db/turns', () => ({ renewTurn }));

const { keepTurnMarked, RENEW_TURN_MS, STALE_TURN_MS } = await import('./turn-mark');
const db = {} as Db;

const onLost = vi.fn();

beforeEach(() => {
  vi.useFakeTimers();
  renewTurn.mockClear();
  onLost.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('renews a running turn’s mark on a timer, several times within the stale window', () => {
  const stop = keepTurnMarked(db, 's1', 't1', onLost);
  vi.advanceTimersByTime(STALE_TURN_MS);
  expect(renewTurn.mock.calls.length).toBeGreaterThanOrEqual(3);
  expect(renewTurn).toHaveBeenCalledWith(db, 's1', 't1');
  stop();
});

it('stops renewing once the turn ends', () => {
  const stop = keepTurnMarked(db, 's1', 't1', onLost);
  vi.advanceTimersByTime(RENEW_TURN_MS);
  expect(renewTurn).toHaveBeenCalledTimes(1);
  stop();
  vi.advanceTimersByTime(10 * RENEW_TURN_MS);
  expect(renewTurn).toHaveBeenCalledTimes(1);
});

it('logs a failed renewal and goes on renewing', async () => {
  const log = vi.spyOn(console, 'error').mockImplementation(() => {});
  renewTurn.mockRejectedValueOnce(new Error('connection lost'));
  const stop = keepTurnMarked(db, 's1', 't1', onLost);
  await vi.advanceTimersByTimeAsync(RENEW_TURN_MS);
  expect(log).toHaveBeenCalledWith(expect.stringContaining('t1'), expect.any(Error));
  await vi.advanceTimersByTimeAsync(RENEW_TURN_MS);
  expect(renewTurn).toHaveBeenCalledTimes(2);
  stop();
});

it('gives the turn up once another turn holds the mark, and renews no more', async () => {
  const stop = keepTurnMarked(db, 's1', 't1', onLost);
  await vi.advanceTimersByTimeAsync(RENEW_TURN_MS);
  expect(onLost).not.toHaveBeenCalled();
  renewTurn.mockResolvedValueOnce(false);
  await vi.advanceTimersByTimeAsync(RENEW_TURN_MS);
  expect(onLost).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(5 * RENEW_TURN_MS);
  expect(renewTurn).toHaveBeenCalledTimes(2);
  expect(onLost).toHaveBeenCalledTimes(1);
  stop();
});
