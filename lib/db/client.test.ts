import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { type Database, getDatabase, openDatabase, startDatabase } from './client';

type Rows<T> = { rows: T[] };

// Every worker thread started, so that a test can end PGlite's as a crash would.
const threads = vi.hoisted((): import('node:worker_threads').Worker[] => []);
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class TrackedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      threads.push(this);
    }
  }
  return { ...actual, default: { ...actual, Worker: TrackedWorker }, Worker: TrackedWorker };
});

describeEachDatabase('transactions', (database) => {
  const db = () => database().db;

  it('roll back on an error, and keep out the queries made meanwhile', async () => {
    await db().execute(sql`create table kept (value text)`);
    let inserted!: () => void;
    const insertedInside = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db().transaction(async (tx) => {
      await tx.execute(sql`insert into kept values ('inside')`);
      inserted();
      await held;
      throw new Error('undone');
    });
    await insertedInside;
    // Made while the transaction is open: it must neither see its row nor be undone with it.
    const outside = db().execute(sql`insert into kept values ('outside') returning value`);
    release();
    await expect(transaction).rejects.toThrow('undone');
    await outside;
    const { rows } = (await db().execute(sql`select value from kept`)) as Rows<{ value: string }>;
    expect(rows).toEqual([{ value: 'outside' }]);
  });

  it('commit what they wrote', async () => {
    await db().execute(sql`create table committed (value text)`);
    await db().transaction(async (tx) => {
      await tx.execute(sql`insert into committed values ('a')`);
      // A nested transaction is a savepoint: its rollback keeps the outer one's rows.
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into committed values ('b')`);
          throw new Error('only the inner one');
        })
        .catch(() => {});
    });
    const { rows } = (await db().execute(sql`select value from committed`)) as Rows<{
      value: string;
    }>;
    expect(rows).toEqual([{ value: 'a' }]);
  });

  it('reject a failing query with the database error', async () => {
    await expect(db().execute(sql`select * from no_such_table`)).rejects.toMatchObject({
      cause: { code: '42P01', message: expect.stringContaining('no_such_table') },
    });
  });
});

describe('PGlite on a thread of its own', () => {
  const folders: string[] = [];
  const opened: Database[] = [];
  const open = async (directory = mkdtempSync(join(tmpdir(), 'quanta-thread-'))) => {
    folders.push(directory);
    const database = await openDatabase({ directory });
    opened.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('leaves the event loop free while a query runs', async () => {
    const { db } = await open();
    const order: string[] = [];
    const sleeping = db.execute(sql`select pg_sleep(1)`).then(() => order.push('query'));
    // On the server's own thread the WASM would hold it for the whole second: the query would
    // finish before the timer could run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('timer');
    await sleeping;
    expect(order).toEqual(['timer', 'query']);
  });

  it('starts a new folder from the template instead of running initdb', async () => {
    const identity = async (database: Database) => {
      const { rows } = (await database.db.execute(
        sql`select system_identifier::text as id from pg_control_system()`,
      )) as Rows<{ id: string }>;
      return rows[0]?.id;
    };
    // initdb gives every database a new system identifier; copies of one template share it.
    const [first, second] = await Promise.all([open(), open()]);
    expect(await identity(first)).toBeDefined();
    expect(await identity(first)).toBe(await identity(second));
  });

  it('starts afresh from the template when an earlier unpacking was cut short', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'quanta-thread-'));
    mkdirSync(join(directory, 'pglite.partial', 'base'), { recursive: true });
    writeFileSync(join(directory, 'pglite.partial', 'PG_VERSION'), 'half');
    writeFileSync(join(directory, 'pglite.partial', 'stray'), 'from the cut-short start');
    const { db } = await open(directory);
    expect(existsSync(join(directory, 'pglite', 'stray'))).toBe(false);
    const { rows } = (await db.execute(sql`select count(*)::int as n from sessions`)) as Rows<{
      n: number;
    }>;
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('the app database', () => {
  /** Runs `test` with the app's database configured as PGlite in a new folder, then forgets it. */
  async function inNewDataFolder(test: () => Promise<void>) {
    const folder = mkdtempSync(join(tmpdir(), 'quanta-start-'));
    const previous = { dir: process.env.QUANTA_DATA_DIR, url: process.env.DATABASE_URL };
    process.env.QUANTA_DATA_DIR = folder;
    delete process.env.DATABASE_URL;
    try {
      await test();
    } finally {
      (globalThis as { quantaDatabase?: unknown }).quantaDatabase = undefined;
      if (previous.dir === undefined) delete process.env.QUANTA_DATA_DIR;
      else process.env.QUANTA_DATA_DIR = previous.dir;
      if (previous.url !== undefined) process.env.DATABASE_URL = previous.url;
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it('prepares every database it opens, a retry after a failed preparation too', async () => {
    await inNewDataFolder(async () => {
      let prepared = 0;
      const first = startDatabase(async () => {
        prepared += 1;
        if (prepared === 1) throw new Error('not yet');
      });
      await expect(first).rejects.toThrow('not yet');
      // A request after the failure opens it again, prepared as at start-up.
      const database = await getDatabase();
      expect(prepared).toBe(2);
      expect(await getDatabase()).toBe(database);
      expect(prepared).toBe(2);
      await database.close();
    });
  }, 60_000);

  it('opens the embedded database again at once, prepared, after its thread died', async () => {
    await inNewDataFolder(async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      onTestFinished(() => error.mockRestore());
      let prepared = 0;
      const first = await startDatabase(async () => {
        prepared += 1;
      });
      await threads.at(-1)?.terminate();
      await expect(first.db.execute(sql`select 1`)).rejects.toMatchObject({
        cause: { message: expect.stringContaining('The PGlite thread exited') },
      });

      // Opened and prepared again with no request asking (the preparation stops its turns).
      await vi.waitFor(() => expect(prepared).toBe(2), { timeout: 30_000 });
      const second = await getDatabase();
      expect(second).not.toBe(first);
      expect(prepared).toBe(2);
      const { rows } = (await second.db.execute(sql`select 1 as n`)) as Rows<{ n: number }>;
      expect(rows).toEqual([{ n: 1 }]);
      // Closing it on purpose is no loss: the database stays the app's.
      await second.close();
      expect(await getDatabase()).toBe(second);
    });
  }, 60_000);
});
