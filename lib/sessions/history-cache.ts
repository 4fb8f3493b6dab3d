import type { Db } from '../db/client';
import type { MessageRow } from '../db/schema';

// An instance's copy of the histories its turns read, so a turn in a long session asks the
// database for the messages written since the last one (usually that turn's prompt and answer)
// instead of all of them. Every write to a message stamps it with its session's next revision
// (migration 0006), in the order the writes commit, so what a copy lacks is the rows stamped
// after the newest it holds. What it holds that the database no longer has (an edit or a
// regenerate deleted it), or what it lacks before its start (an edit deleted what the summary it
// started after covered), shows as a count or positions that do not match the history's, and the
// history is read whole.

/**
 * What the cache holds of one session: every stored message from where its history started (its
 * summary's end) on, in order, the newest revision among them, and what they weigh (see
 * `frozenWeight`).
 */
type Copy = { revision: number; rows: MessageRow[]; weight: number };

/**
 * The most the cache holds over all its sessions, in characters of JSON: 64 sessions whose
 * history fills a 64,000-token context. A message's widget data and answer can be far bigger
 * than what the model is sent of it, so a count of messages would not bound it.
 */
const CACHED_CHARACTERS = 16 * 1024 * 1024;

const weights = new WeakMap<MessageRow, number>();

/**
 * Freezes `row` to its last part and returns the characters of JSON its parts and metadata take,
 * both in one walk, once per row: the cache hands the same rows to turn after turn, so a change
 * one turn made to them would reach the next turn's model unseen; frozen, it fails where it is
 * made.
 */
function frozenWeight(row: MessageRow): number {
  let characters = weights.get(row);
  if (characters === undefined) {
    characters = JSON.stringify([row.parts, row.metadata], frozen).length;
    weights.set(Object.freeze(row), characters);
  }
  return characters;
}

function frozen(_key: string, value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

const caches = new WeakMap<Db, HistoryCache>();

/** The cache of the histories read from `db`. */
export function historyCache(db: Db): HistoryCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new HistoryCache();
    caches.set(db, cache);
  }
  return cache;
}

export class HistoryCache {
  // A Map keeps insertion order: a session read again moves to the end, and the first is the
  // one read least lately.
  private readonly copies = new Map<string, Copy>();
  private total = 0;

  constructor(private readonly limit: number = CACHED_CHARACTERS) {}

  /** The newest revision of the session's messages the cache holds, to ask for those after. */
  heldRevision(sessionId: string): number | undefined {
    return this.copies.get(sessionId)?.revision;
  }

  /**
   * The session's history from `from` on — the messages the cache held, brought up to date with
   * `changed` (those written after its revision, from a claim's read), kept for the next turn.
   * Undefined when it is not `count` messages in a row from `from` — the cache held messages
   * since deleted, or lacks some before its start (the summary it started after went), or both
   * at once — and then it forgets them.
   */
  update(
    sessionId: string,
    { from, changed, count }: { from: number; changed: MessageRow[]; count: number },
  ): MessageRow[] | undefined {
    const copy = this.take(sessionId);
    const byPosition = new Map<number, MessageRow>();
    for (const row of copy?.rows ?? []) if (row.position >= from) byPosition.set(row.position, row);
    for (const row of changed) byPosition.set(row.position, row);
    const rows = [...byPosition.values()].sort((a, b) => a.position - b.position);
    // A copy that lacks some messages and holds as many deleted ones is as long as the history:
    // its positions give it away. (A history whose positions skip one is read whole at each
    // turn: a late save of a turn taken for dead, after an edit, left one before a turn's saves
    // needed its mark.)
    if (rows.length !== count || rows.some((row, index) => row.position !== from + index)) {
      return undefined;
    }
    this.keep(sessionId, rows);
    return rows;
  }

  /**
   * Keeps `rows`, the session's whole history as just read, unless they alone weigh more than
   * the cache holds: then the other sessions' copies stay.
   */
  keep(sessionId: string, rows: MessageRow[]): void {
    this.take(sessionId);
    const copy = {
      revision: rows.reduce((newest, row) => Math.max(newest, row.revision), -1),
      rows,
      weight: rows.reduce((sum, row) => sum + frozenWeight(row), 0),
    };
    if (copy.weight > this.limit) return;
    this.copies.set(sessionId, copy);
    this.total += copy.weight;
    for (const [id, oldest] of this.copies) {
      if (this.total <= this.limit) break;
      this.copies.delete(id);
      this.total -= oldest.weight;
    }
  }

  private take(sessionId: string): Copy | undefined {
    const copy = this.copies.get(sessionId);
    if (copy) {
      this.copies.delete(sessionId);
      this.total -= copy.weight;
    }
    return copy;
  }
}
