import pg from 'pg';

/** A database of a test's own on the PostgreSQL server of DATABASE_URL. */
export type OwnDatabase = {
  url: string;
  /** Runs one statement in it (for what no API does, such as ageing a turn's mark). */
  query(statement: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Removes it, even while servers still hold connections to it. */
  drop(): Promise<void>;
};

/** A new, empty database named `<prefix>_<random>` next to the one `server` (DATABASE_URL) names. */
export async function emptyPostgresDatabase(
  prefix = 'quanta_test',
  server = process.env.DATABASE_URL,
): Promise<OwnDatabase> {
  if (!server) throw new Error('DATABASE_URL is unset: there is no PostgreSQL to use');
  const name = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  await run(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: (statement, values) => run(url.toString(), statement, values),
    drop: async () => {
      await run(server, `drop database if exists ${name} with (force)`);
    },
  };
}

async function run(url: string, statement: string, values?: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}
