// Preloaded into a server by bench/promises.mts (NODE_OPTIONS=--require): counts the promises
// the process creates, and writes the count to $BENCH_PROMISE_COUNT_FILE on SIGUSR2.
const { createHook } = require('node:async_hooks');
const { writeFileSync } = require('node:fs');

let count = 0;
createHook({
  init(_id, type) {
    if (type === 'PROMISE') count++;
  },
}).enable();
process.on('SIGUSR2', () => writeFileSync(process.env.BENCH_PROMISE_COUNT_FILE, String(count)));
