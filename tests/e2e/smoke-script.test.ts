import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * `npm run smoke -- --base URL` (scripts/smoke.ts), the check an operator runs against a new
 * stage (docs/deploy.md), run as an operator runs it, against the local runtime.
 */
let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(() => rt?.stop());

const smoke = (base: string, password: string) =>
  promisify(execFile)('npm', ['run', '--silent', 'smoke', '--', '--base', base], {
    env: {
      ...process.env,
      OPS_BOOTSTRAP_ADMIN_EMAIL: rt.admin.email,
      OPS_BOOTSTRAP_ADMIN_PASSWORD: password,
    },
    timeout: 60_000,
  });

describe('npm run smoke', () => {
  it("passes the walkthrough's calls in order against the local runtime", async () => {
    const { stdout } = await smoke(`${rt.baseUrl}/`, rt.admin.password);
    const calls = stdout
      .split('\n')
      .filter((l) => l.startsWith('ok '))
      .map((l) =>
        l
          .replace(/ \(\d+ ms\)$/, '')
          .replace(/smoke-[\w-]+/, 'T')
          .replace(/[0-9a-f-]{36}|token_id/g, 'ID'),
      );
    // The polls repeat a call until the worker is done: once each is enough to compare.
    expect([...new Set(calls)]).toEqual(
      expect.arrayContaining([
        'ok 200 GET /health',
        'ok 201 POST /auth/sessions',
        'ok 201 POST /tenants',
        'ok 201 POST /tenants/T/workflow-rules',
        'ok 201 POST /tenants/T/exceptions',
        'ok 200 GET /tenants/T/tasks?subject_type=exception&subject_id=ID',
        'ok 202 POST /tenants/T/notifications',
        'ok 200 POST /tenants/T/inbox/ID/read',
        'ok 409 POST /tenants/T/exceptions/ID/status',
        'ok 401 GET /auth/me',
      ]),
    );
    expect(calls.at(-1)).toBe('ok 401 GET /auth/me');
    expect(stdout).toMatch(/smoke passed: \d+ calls, tenant smoke-\d{12}-[0-9a-f]{6}\n$/);
  });

  it('fails at the first unexpected answer, naming it', async () => {
    const run = smoke(rt.baseUrl, 'not-the-admin-password');
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('smoke FAILED: POST /auth/sessions: 401, expected 201'),
    });
  });
});
