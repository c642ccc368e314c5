import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { LOCAL_AWS_ENV } from '#local/dynamodb-local';
import { verifyPassword } from '#shared/kernel/secrets';
import { dynamoEndpoint, freshDb } from '#tests/support/db';
import { login as loginFixture } from '#tests/support/fixtures';

/**
 * `scripts/bootstrap-admin.ts`, the cloud's one-off first-admin command, run as an operator runs
 * it (a child process with the standard AWS environment) against a fresh table in DynamoDB Local.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const EMAIL = 'First.Admin@Example.test';
const PASSWORD = 'correct horse battery';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(env: Record<string, string>, args = ['--table', db.tableName]): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_') && !k.startsWith('OPS_BOOTSTRAP_')),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node_modules/.bin/tsx',
      ['scripts/bootstrap-admin.ts', ...args],
      {
        cwd: root,
        env: { ...base, ...LOCAL_AWS_ENV, AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint(), ...env },
        timeout: 30_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const itemCount = async () =>
  (await db.doc.send(new ScanCommand({ TableName: db.tableName, Select: 'COUNT' }))).Count ?? 0;

const credentials = { OPS_BOOTSTRAP_ADMIN_EMAIL: EMAIL, OPS_BOOTSTRAP_ADMIN_PASSWORD: PASSWORD };

describe('bootstrap-admin script', () => {
  // Sequential: the refusals run on the empty table, then the admin is created, then re-run.
  it('refuses missing environment, a short password and a missing table name, writing nothing', async () => {
    const cases: [Record<string, string>, RegExp, string[]?][] = [
      [{}, /OPS_BOOTSTRAP_ADMIN_EMAIL and OPS_BOOTSTRAP_ADMIN_PASSWORD must both be set/],
      [
        { OPS_BOOTSTRAP_ADMIN_EMAIL: EMAIL },
        /OPS_BOOTSTRAP_ADMIN_EMAIL and OPS_BOOTSTRAP_ADMIN_PASSWORD must both be set/,
      ],
      [
        { OPS_BOOTSTRAP_ADMIN_PASSWORD: PASSWORD },
        /OPS_BOOTSTRAP_ADMIN_EMAIL and OPS_BOOTSTRAP_ADMIN_PASSWORD must both be set/,
      ],
      [{ ...credentials, OPS_BOOTSTRAP_ADMIN_PASSWORD: 'short-pass1' }, /at least 12 characters/],
      [{ ...credentials, OPS_BOOTSTRAP_ADMIN_EMAIL: 'not-an-email' }, /not an e-mail address/],
      [credentials, /--stage <stage> or the table with --table <name>/, []],
      [credentials, /--stage must match/, ['--stage', 'Prod!']],
    ];
    const results = await Promise.all(cases.map(([env, , args]) => run(env, args)));
    results.forEach((result, i) => {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(cases[i]![1]);
      expect(result.stdout).toBe('');
    });
    expect(await itemCount()).toBe(0);
    expect(await stores.identity.findLogin(EMAIL)).toBeUndefined();
  });

  it('creates the platform admin on the first run', async () => {
    const result = await run(credentials);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`created platform admin ${EMAIL.toLowerCase()} in table ${db.tableName}`);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);

    const found = await stores.identity.findLogin(EMAIL);
    expect(found?.user.email).toBe(EMAIL.toLowerCase());
    expect(found?.user.platform_roles).toEqual(['platform_admin']);
    expect(await verifyPassword(PASSWORD, found!.password_hash)).toBe(true);
  });

  it('reports an existing admin on the second run and changes nothing', async () => {
    const before = await stores.identity.findLogin(EMAIL);
    const count = await itemCount();
    const result = await run({ ...credentials, OPS_BOOTSTRAP_ADMIN_PASSWORD: 'a different password' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`platform admin ${EMAIL.toLowerCase()} already exists`);
    expect(result.stdout).toContain('nothing changed');
    expect(await stores.identity.findLogin(EMAIL)).toEqual(before);
    expect(await itemCount()).toBe(count);
  });

  it('refuses an e-mail that belongs to a user who is not a platform admin, changing nothing', async () => {
    const member = loginFixture('member@example.test');
    await stores.identity.createUser(member, null);
    const count = await itemCount();
    const result = await run({ ...credentials, OPS_BOOTSTRAP_ADMIN_EMAIL: member.user.email });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('member@example.test already exists');
    expect(result.stderr).toContain('is not a platform admin; nothing changed');
    expect(await stores.identity.findLogin(member.user.email)).toEqual(member);
    expect(await itemCount()).toBe(count);
  });

  it('fails clearly when the table does not exist', async () => {
    const result = await run(credentials, ['--table', `${db.tableName}-missing`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`table ${db.tableName}-missing not found`);
  });
});
