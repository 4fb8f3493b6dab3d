// At start-up, not on the first request: refuse a malformed configuration, open the database
// (running any pending migration, closing turns a crash left), and with REDIS_URL share session
// events and running turns through Redis.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const config = await import('./lib/config');
    const { prices } = await import('./lib/agent/usage');
    const { allowedHosts } = await import('./lib/http/allowed-hosts');
    for (const setting of [
      config.maxSteps,
      config.modelTimeoutMs,
      config.maxAnswerBytes,
      config.maxToolInputBytes,
      config.maxWidgetDataBytes,
      config.ownerLimits,
      prices,
    ]) {
      setting();
    }
    // Checked by the proxy on every request: a malformed list must stop the server here instead.
    allowedHosts();
    const { getDatabase } = await import('./lib/db/client');
    const database = await getDatabase();
    if (database.driver === 'pglite') {
      // Only this process opens PGlite's folder: a turn still marked died with the one before.
      const { closeTurnsOfDeadProcess } = await import('./lib/sessions/dead-turns');
      await closeTurnsOfDeadProcess(database.db);
    }
    const url = config.redisUrl();
    if (url) {
      const { connectRedisBuses } = await import('./lib/events/redis-bus');
      const { setSessionEventBus } = await import('./lib/events/session-events');
      const { setTurnBus } = await import('./lib/turns/turn-bus');
      const buses = connectRedisBuses(url);
      setSessionEventBus(buses.bus('quanta:session:'));
      setTurnBus(buses.bus('quanta:turn:'));
    }
  }
}
