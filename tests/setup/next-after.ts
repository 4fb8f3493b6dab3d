import { vi } from 'vitest';

// Route handlers called directly have no request scope, where Next's `after()` throws: here the
// work handed to it simply runs on, as it does on a server that keeps running.
vi.mock('next/server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/server')>()),
  after: (task: Promise<unknown> | (() => unknown)) => {
    void Promise.resolve(typeof task === 'function' ? task() : task).catch(() => {});
  },
}));
