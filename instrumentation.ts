// Opens the database (running any pending migration) when the server starts, not on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getDatabase } = await import('./lib/db/client');
    await getDatabase();
  }
}
