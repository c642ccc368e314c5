import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The fast tiers for mutation testing (npm run mutate): unit and connected tests only. The
 * end-to-end tier starts whole runtimes and the budget tests build bundles; both would multiply
 * the time of every mutant without killing more of the domain and store mutants.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['tests/unit/**/*.test.ts', 'tests/connected/**/*.test.ts'],
      exclude: [
        'tests/unit/budgets/**',
        'tests/connected/budgets/**',
        'tests/unit/demo/**',
        'tests/unit/clients-up-to-date.test.ts',
      ],
    },
  }),
);
