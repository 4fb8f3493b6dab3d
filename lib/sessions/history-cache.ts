import type { Db } from '../db/client';
import type { MessageRow } from '../db/schema';
import type { HeldHistory } from '../db/turns';

// An instance's copy of the histories its turns read, so a turn in a long session asks the
// database for the messages written since the last one (usually that turn's prompt and answer)
// instead of all of them. Every write to a message stamps it with its session's next revision
// (migration 0006), in the order the writes commit, so what a copy lacks is the rows stamped
// after the newest it holds; what it holds that the database no longer has (an edit or a
// regenerate deleted it) shows as a count that does not match, and the history is read whole.

/** What the cache holds of one session: every stored message from `from` on, in order. */
type Copy = { from: number; revision: number; rows: MessageRow[] };

/**
 * The most messages the cache holds, over all its sessions: forty sessions of 500 messages (a
 * 64,000-token context), some tens of megabytes.
 */
const CACHED_MESSAGES = 20_000;

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
  private size = 0;

  constructor(private readonly limit: number = CACHED_MESSAGES) {}

  /** What the cache holds of the session's history, to ask the database for the rest. */
  held(sessionId: string): HeldHistory | undefined {
    const copy = this.copies.get(sessionId);
    return copy && { from: copy.from, revision: copy.revision };
  }

  /**
   * The session's history from `from` on — the messages the cache held, brought up to date with
   * `changed` (those it lacked, from a claim's read), kept for the next turn. Undefined when it
   * is not `count` messages long: the cache held messages since deleted, and forgets them.
   */
  update(
    sessionId: string,
    { from, changed, count }: { from: number; changed: MessageRow[]; count: number },
  ): MessageRow[] | undefined {
    const copy = this.take(sessionId);
    const byPosition = new Map<number, MessageRow>();
    for (const row of copy?.rows ?? []) if (row.position >= from) byPosition.set(row.position, row);
    for (const row of changed) byPosition.set(row.position, row);
    if (byPosition.size !== count) return undefined;
    const rows = [...byPosition.values()].sort((a, b) => a.position - b.position);
    this.keep(sessionId, from, rows);
    return rows;
  }

  /** Keeps `rows`, the session's whole history from `from` on as just read. */
  keep(sessionId: string, from: number, rows: MessageRow[]): void {
    this.take(sessionId);
    const revision = rows.reduce((newest, row) => Math.max(newest, row.revision), -1);
    this.copies.set(sessionId, { from, revision, rows });
    this.size += rows.length;
    for (const [id, oldest] of this.copies) {
      if (this.size <= this.limit) break;
      this.copies.delete(id);
      this.size -= oldest.rows.length;
    }
  }

  private take(sessionId: string): Copy | undefined {
    const copy = this.copies.get(sessionId);
    if (copy) {
      this.copies.delete(sessionId);
      this.size -= copy.rows.length;
    }
    return copy;
  }
}
