import { afterAll, expect } from 'vitest';

/**
 * After every file of the shared worker: the functions' configuration follows the environment
 * again. A file that provides one (tests/support/handler-config.ts) and keeps it breaks whichever
 * file the worker runs next, and which file that is depends on the machine's file order: CI's
 * clean checkout failed on 2026-11-27 where this machine passed. Checked here, the file that
 * keeps it fails, on every machine and in every order. Imported when checked: a file that reset
 * modules has a newer configuration module than the one loaded with this file.
 */
afterAll(async () => {
  const { tableConfig } = await import('#functions/config');
  const before = process.env.TABLE_NAME;
  process.env.TABLE_NAME = 'config-handed-back-probe';
  try {
    expect(
      tableConfig().tableName,
      'this file provided a configuration and did not hand it back (provideConfig(undefined) in afterAll)',
    ).toBe('config-handed-back-probe');
  } finally {
    if (before === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = before;
  }
});
