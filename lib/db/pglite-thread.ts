import 'server-only';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

// The main thread's side of lib/db/pglite-worker.mjs, which runs PGlite on a thread of its own.
// It offers what Drizzle's PGlite driver calls (`query`, `transaction`), so the app queries it
// as it would PGlite itself.

/**
 * Read from disk at run time, like the migrations. Without the comment Turbopack bundles the
 * script into a chunk of its own, and runs that.
 */
const workerScript = join(
  /* turbopackIgnore: true */ process.cwd(),
  'lib',
  'db',
  'pglite-worker.mjs',
);

type Request =
  | {
      type: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      textTypes: number[];
      transaction?: number;
    }
  | { type: 'begin' }
  | { type: 'commit' | 'rollback'; transaction: number }
  | { type: 'dump' }
  | { type: 'close' };

type Reply =
  | { type: 'ready' }
  | { type: 'failed'; error: ErrorFields }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ErrorFields };

type ErrorFields = { message: string } & Record<string, unknown>;

type Queryable = Pick<PGlite, 'query'>;

/** PGlite on its own thread, as far as Drizzle's driver uses it. */
export type PgliteThread = Queryable & {
  transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T>;
  /** The data folder as an uncompressed tarball (PGlite's `dumpDataDir`). */
  dump(): Promise<Uint8Array>;
  close(): Promise<void>;
};

/**
 * Opens PGlite in `directory` on a worker thread; a new folder is unpacked from `template` (a
 * `dump()`) when given and present. Resolves once the database is ready. `onLost` hears of a
 * thread that ends after that other than by `close()`: it answers nothing from then on.
 */
export function startPgliteThread(
  directory: string,
  template?: string,
  onLost?: (error: Error) => void,
): Promise<PgliteThread> {
  const worker = new Worker(workerScript, { workerData: { directory, template } });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  let stopped: Error | undefined;
  let started = false;
  let closing = false;

  // Referenced only while a request waits on it: an idle database keeps no process alive, a
  // busy one keeps its caller's process running until the answer.
  const send = (request: Request) =>
    new Promise<unknown>((resolve, reject) => {
      if (stopped) throw stopped;
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };

  const query =
    (transaction?: number): Queryable['query'] =>
    async <T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) =>
      (await send({
        type: 'query',
        sql,
        params,
        rowMode: options.rowMode ?? 'object',
        textTypes: Object.keys(options.parsers ?? {}).map(Number),
        transaction,
      })) as Results<T>;

  const thread: PgliteThread = {
    query: query(),
    // PGlite's transaction, held open in the worker: until it ends, the worker runs no other
    // query, so the transaction's statements never mix with anyone else's.
    async transaction(callback) {
      const id = (await send({ type: 'begin' })) as number;
      let result: Awaited<ReturnType<typeof callback>>;
      try {
        result = await callback({ query: query(id) });
      } catch (error) {
        await send({ type: 'rollback', transaction: id });
        throw error;
      }
      await send({ type: 'commit', transaction: id });
      return result;
    },
    dump: async () => (await send({ type: 'dump' })) as Uint8Array,
    async close() {
      closing = true;
      await send({ type: 'close' });
      await worker.terminate();
    },
  };

  return new Promise((ready, failed) => {
    worker.on('message', (reply: Reply) => {
      if ('id' in reply) {
        const waiting = settle(reply.id);
        if (reply.ok) waiting?.resolve(reply.result);
        else waiting?.reject(asError(reply.error));
      } else if (reply.type === 'ready') {
        worker.unref();
        started = true;
        ready(thread);
      } else {
        void worker.terminate();
        failed(asError(reply.error));
      }
    });
    // The thread itself failed (its script missing, WASM out of memory): nothing it was asked
    // will be answered, and nothing more can be.
    const stop = (error: Error) => {
      if (stopped) return;
      stopped = error;
      failed(error);
      for (const id of [...pending.keys()]) settle(id)?.reject(error);
      if (started && !closing) onLost?.(error);
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`The PGlite thread exited (code ${code})`)));
  });
}

const asError = ({ message, ...fields }: ErrorFields) => Object.assign(new Error(message), fields);
