import { config } from 'zod/v4/core';

// The AI SDK's client code builds zod schemas as it loads, and zod first probes whether it may
// compile code with `Function`. Our Content-Security-Policy forbids that, so the probe would only
// show up as a violation report on every page: zod is told, before any app code runs, to
// interpret rather than compile.
config({ jitless: true });
