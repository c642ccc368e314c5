import { defineConfig } from 'vitest/config';
import base from './vitest.config';

const { projects: _projects, ...common } = base.test ?? {};

/**
 * The fast tiers for mutation testing (npm run mutate): unit and connected tests only. The
 * end-to-end tier starts whole runtimes and the budget tests build bundles; both would multiply
 * the time of every mutant without killing more of the domain and store mutants. Written out
 * rather than merged with the base config: a merge concatenates `include`, which would bring the
 * whole suite back.
 */
export default defineConfig({
  test: {
    ...common,
    include: ['tests/unit/**/*.test.ts', 'tests/connected/**/*.test.ts'],
    exclude: [
      'tests/unit/budgets/**',
      'tests/connected/budgets/**',
      'tests/unit/demo/**',
      'tests/unit/clients-up-to-date.test.ts',
      'tests/unit/layering.test.ts',
      'tests/unit/doc-links.test.ts',
      'tests/unit/api-doc.test.ts',
      // Reads the repository's text for stale citations and paths; the sandbox's copy is not the
      // repository's text (it failed the dry run there), and it kills no mutant.
      'tests/unit/doc-citations.test.ts',
      // Counts lines, which differ in the sandbox's copy (it failed the dry run there).
      'tests/unit/source-size.test.ts',
      // Runs scripts/bootstrap-admin.ts as a child process, which the sandbox's copied tree
      // cannot start; the use case it calls is tested directly (tests/connected/identity-use-cases.test.ts).
      'tests/connected/bootstrap-admin.test.ts',
      // Runs scripts/generate-clients.ts as a child process, which the sandbox's copied tree
      // cannot start either (it failed the dry run of a timer-store run); it tests the generated
      // clients, not the code in the mutation scope.
      'tests/unit/client-deprecation.test.ts',
    ],
    // Every test file makes its own table and state, so files can share a worker: a mutant's
    // run then pays no process start per file.
    isolate: false,
    setupFiles: ['tests/support/config-handed-back.ts'],
    // Stryker runs its own test runners side by side (its `concurrency`); each takes one worker.
    maxWorkers: 1,
    // The dry run measures every related test once on a machine shared with other work; a test
    // that writes a few thousand items (the preview reader's partition over its read cap) passed
    // 30 s there. Mutants are bounded by Stryker's own timeout (timeoutMS), not by this.
    testTimeout: 120_000,
  },
});
