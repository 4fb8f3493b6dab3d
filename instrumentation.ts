// At start-up, not on the first request: refuse a malformed configuration, and open the
// database (running any pending migration).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { maxSteps, modelTimeoutMs } = await import('./lib/config');
    const { prices } = await import('./lib/agent/usage');
    maxSteps();
    modelTimeoutMs();
    prices();
    const { getDatabase } = await import('./lib/db/client');
    await getDatabase();
  }
}
