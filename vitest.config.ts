import { defineConfig } from 'vitest/config';

/**
 * Files that cannot share a worker with others: they build bundles, start whole runtimes or
 * child processes, reload modules on purpose, or read configuration at load. Every other unit
 * and connected file makes its own table and state, so those share a worker without
 * isolation and pay no process start and no fresh module graph per file (the suite's import
 * time was about 40% of its run).
 */
const needIsolation = [
  'tests/connected/budgets/**',
  'tests/unit/demo/**',
  'tests/unit/clients-up-to-date.test.ts',
  'tests/unit/layering.test.ts',
  'tests/unit/doc-links.test.ts',
  'tests/unit/api-doc.test.ts',
  'tests/connected/bootstrap-admin.test.ts',
  // Runs a polling loop over DynamoDB Local's stream; beside other files in one worker it missed
  // its first record in three of six full runs (2026-11-27), never alone.
  'tests/connected/stream-poller.test.ts',
  // Stubs the Streams client class-wide while its poller runs.
  'tests/connected/stream-poller-resume.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Three files at a time on the 2-core machines this runs on (vitest's default there is one):
    // most of a file's time is spent waiting on DynamoDB Local, the runtime's queues, a browser or
    // a child process, so the other workers fill one's waits. Measured on a quiet machine with
    // the console's browser tests in: 2 workers 441 s, 3 workers 376 s, 4 workers 372 s (one
    // worker was 768 s before the console). Tests that raced the wall clock move a clock instead.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      OPS_LOCAL_QUIET: '1',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-worker',
          include: ['tests/unit/**/*.test.ts', 'tests/connected/**/*.test.ts'],
          exclude: [...needIsolation, 'tests/unit/budgets/**'],
          isolate: false,
          setupFiles: ['tests/support/config-handed-back.ts'],
        },
      },
      {
        // The bundle budgets share one worker and so its bundles (bench/lib/bundle.ts keeps
        // them): each deployed function is built once, not once per file that asks.
        extends: true,
        test: {
          name: 'budgets',
          include: ['tests/unit/budgets/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['tests/e2e/**/*.test.ts', 'tests/infra/**/*.test.ts', ...needIsolation],
        },
      },
    ],
  },
});
