import { vi } from 'vitest';

// The suite's demo model answers at full speed: no test waits on its reading pace. A test about
// pacing passes `delayMs` itself; a test that needs a turn to be running holds one open with
// tests/helpers/held-model.ts instead of racing the demo's end.
vi.mock('@/lib/agent/demo-model', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/agent/demo-model')>();
  return {
    ...actual,
    createDemoModel: (options: Parameters<typeof actual.createDemoModel>[0] = {}) =>
      actual.createDemoModel({ delayMs: 0, ...options }),
  };
});
