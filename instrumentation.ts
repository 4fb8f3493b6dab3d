// At start-up, not on the first request: refuse a malformed configuration, open the database
// (running any pending migration, closing turns a crash left; PGlite without holding up the
// start), and with REDIS_URL share session events and running turns through Redis.
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
    const { startDatabase } = await import('./lib/db/client');
    const postgres = config.databaseUrl() !== undefined;
    // Only this process opens PGlite's folder: a turn still marked died with the one before.
    // Its code is loaded while the database opens, not after (a cold load of 80–220 ms).
    const deadTurns = postgres ? undefined : import('./lib/sessions/dead-turns');
    const database = startDatabase(async ({ db }) => {
      await (await deadTurns)?.closeTurnsOfDeadProcess(db);
    });
    if (postgres) {
      // A server that cannot reach its PostgreSQL does not start.
      await database;
    } else {
      // PGlite opens on its own thread while Next loads the app: requests wait for it (and for
      // the dead turns to be closed) in getDatabase. Should it fail, they fail and retry it.
      database.catch((error) => console.error('The database could not be opened:', error));
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
