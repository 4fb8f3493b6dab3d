// The embedded PostgreSQL (PGlite) on a thread of its own: its WASM runs a query to the end
// without yielding, which on the server's thread would hold up every request meanwhile.
// lib/db/pglite-thread.ts starts it and speaks to it; each message names its request by `id`.
// Plain JavaScript, read from disk at run time: Node runs it as it is, outside Next's build.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {{ directory: string; template: string | undefined }} */
const { directory, template } = workerData;

// Compiled on V8's background threads while this one unpacks the template. Left to PGlite, it
// was compiled only after the unpacking, and the first query then waited some 200 ms more on
// those threads (docs/DESIGN.md, Storage).
const wasmModule = WebAssembly.compile(
  readFileSync(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite'))),
);

// A new folder starts from the template (a database made once, at build time) instead of
// running initdb: seconds of WASM, and hundreds of MB the process would keep for its life.
// PGlite's own `loadDataDir` would load it through its WASM file system, slower and leaving
// the whole tarball's copies in memory. Unpacked beside the folder, then renamed onto it: a
// load cut short (a crash, a kill) is never taken for a database.
if (template && existsSync(template) && !existsSync(join(directory, 'PG_VERSION'))) {
  const partial = `${directory}.partial`;
  rmSync(partial, { recursive: true, force: true });
  untar(template, partial);
  mkdirSync(directory, { recursive: true });
  // rename(2) replaces an empty folder, and fails on one with files in it.
  renameSync(partial, directory);
}

/**
 * Writes out the folders and files of an uncompressed ustar tarball (as PGlite's
 * `dumpDataDir` makes: regular files and folders only) under `into`, a file at a time.
 */
function untar(tarball, into) {
  const file = openSync(tarball, 'r');
  const header = Buffer.alloc(512);
  const field = (start, length) =>
    header.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  try {
    mkdirSync(into, { recursive: true });
    // Two blocks of zeros end the archive.
    while (readSync(file, header) === 512 && header[0] !== 0) {
      const path = join(into, field(345, 155), field(0, 100));
      const size = Number.parseInt(field(124, 12), 8) || 0;
      if (field(156, 1) === '5') {
        mkdirSync(path, { recursive: true });
        continue;
      }
      const data = Buffer.alloc(Math.ceil(size / 512) * 512);
      readSync(file, data);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, data.subarray(0, size));
    }
  } finally {
    closeSync(file);
  }
}

const pglite = new PGlite(directory, {
  pgliteWasmModule: await wasmModule,
  // PGlite's defaults size Postgres for a desktop; a chat app's working set is small.
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB'],
  // 1 MB WAL segments instead of 16: a new database is 15 MB smaller on disk.
  initDbStartParams: ['--wal-segsize=1'],
});

/** Open transactions by id: PGlite's own, held open until the caller commits or rolls back. */
const transactions = new Map();
let nextTransaction = 0;

// Drizzle's parsers only keep some types' text as it is (timestamps, dates, intervals): the
// caller names those types, as functions cannot cross to this thread.
const asText = (value) => value;
const queryOptions = ({ rowMode, textTypes }) => ({
  rowMode,
  parsers: Object.fromEntries(textTypes.map((type) => [type, asText])),
});

/**
 * Begins a transaction through PGlite's `transaction`, which keeps every other query out until
 * it ends; it ends when the caller sends commit or rollback.
 */
function begin() {
  return new Promise((began, failed) => {
    const id = nextTransaction++;
    const outcome = pglite.transaction(
      (tx) =>
        new Promise((commit, rollBack) => {
          transactions.set(id, { tx, commit, rollBack, outcome });
          began(id);
        }),
    );
    // A BEGIN that fails never reaches the callback.
    outcome.catch(failed).finally(() => transactions.delete(id));
  });
}

async function end(id, commit) {
  const transaction = transactions.get(id);
  if (commit) {
    transaction.commit();
    await transaction.outcome;
  } else {
    transaction.rollBack(new Error('rolled back'));
    await transaction.outcome.catch(() => {});
  }
}

async function handle(request) {
  switch (request.type) {
    case 'query': {
      const target =
        request.transaction === undefined ? pglite : transactions.get(request.transaction).tx;
      return target.query(request.sql, request.params, queryOptions(request));
    }
    case 'begin':
      return begin();
    case 'commit':
    case 'rollback':
      return end(request.transaction, request.type === 'commit');
    case 'dump':
      return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
    case 'close':
      return pglite.close();
  }
}

// A database error's fields (code, detail, …) are strings: they cross as they are. The query
// and its options (functions) stay behind.
const errorFields = (error) => ({
  ...Object.fromEntries(
    Object.entries(error).filter(([, value]) => ['string', 'number'].includes(typeof value)),
  ),
  message: error.message,
});

// What cannot cross to the other thread fails that one request, not the thread.
const reply = (message) => {
  try {
    parentPort.postMessage(message);
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, error: errorFields(error) });
  }
};

try {
  await pglite.waitReady;
  reply({ type: 'ready' });
} catch (error) {
  reply({ type: 'failed', error: errorFields(error) });
}
parentPort.on('message', (request) => {
  handle(request).then(
    (result) => reply({ id: request.id, ok: true, result }),
    (error) => reply({ id: request.id, ok: false, error: errorFields(error) }),
  );
});
