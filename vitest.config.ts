import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Two cores: each worker's browser files drive a Chromium, so keep at most two files running at once.
    maxWorkers: 2,
    // Test files run one after another in a worker that keeps the modules it has loaded, instead of a
    // fresh worker per file re-evaluating the server's modules: the suite is CPU-bound on two cores,
    // and importing took 130 of the integration tests' 610 CPU-seconds. Each file still builds its own
    // gateway and database, and opens its own browser contexts on the worker's one Chromium
    // (tests/browser/harness.ts); a file that changes a global puts it back (vi.unstubAllGlobals).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
