import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createOpsClient,
  demoPublic,
  exceptionsCreate,
  exceptionsList,
  login,
  tenantsCreate,
} from '../../../clients/typescript/index';
import { DEMO_PAYLOADS } from '#shared/demo/index';
import { EVENT_KINDS } from '#shared/kernel/names';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Each generated client against the local runtime: log in as the platform admin, create a
 * tenant and an exception, list it, read the demo, and see a 422 and a 401 arrive as ApiError.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
let rt: TestRuntime;

beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(() => rt?.stop());

interface Seen {
  created: { id: string; status: string; tenant_id: string };
  listed: string[];
  demoTitle: string;
  outboxKind: string;
  validation: { status: number; code: string; paths: string[]; requestId: string } | null;
  unauthenticated: { status: number; code: string } | null;
}

const tenantId = (client: string) => `smoke-${client}-${randomUUID().slice(0, 8)}`;

function expectSeen(seen: Seen, tenant: string) {
  expect(seen.created).toMatchObject({ status: 'open', tenant_id: tenant });
  expect(seen.listed).toEqual([seen.created.id]);
  expect(seen.demoTitle).toBe((DEMO_PAYLOADS['demo.public'].body as { title: string }).title);
  expect(seen.outboxKind).toBe(EVENT_KINDS.notificationDeliveryRequested);
  expect(seen.validation).toMatchObject({ status: 422, code: 'validation_failed' });
  expect(seen.validation!.paths).toEqual(expect.arrayContaining(['exception_type', 'title', 'unexpected']));
  expect(seen.validation!.requestId).toEqual(expect.any(String));
  expect(seen.unauthenticated).toMatchObject({ status: 401, code: 'unauthenticated' });
}

const env = (tenant: string) => ({
  ...process.env,
  OPS_BASE_URL: rt.baseUrl,
  OPS_EMAIL: rt.admin.email,
  OPS_PASSWORD: rt.admin.password,
  OPS_TENANT: tenant,
});

describe('client smoke tests', () => {
  it('TypeScript client', async () => {
    const tenant = tenantId('ts');
    const client = createOpsClient({ baseUrl: rt.baseUrl });
    const session = await login(client, rt.admin.email, rt.admin.password);
    expect(session.token_type).toBe('bearer');
    await tenantsCreate({ client, body: { id: tenant, name: 'Smoke test (TypeScript)' } });
    const { data: created } = await exceptionsCreate({
      client,
      path: { tenant_id: tenant },
      body: {
        exception_type: 'payment.amount_mismatch',
        subject_type: 'supplier_invoice',
        subject_id: 'INV-20417',
        title: 'Payment below invoice (TypeScript client)',
        summary: 'Paid 540.00 USD less than invoiced.',
      },
    });
    const { data: page } = await exceptionsList({
      client,
      path: { tenant_id: tenant },
      query: { status: 'open' },
    });
    const { data: demo } = await demoPublic({ client });
    const failure = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return null;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return {
          status: error.status,
          code: error.code,
          paths: error.errors.map((e) => e.path),
          requestId: error.requestId!,
        };
      }
    };
    expectSeen(
      {
        created,
        listed: page.items.map((e) => e.id),
        demoTitle: demo.title,
        outboxKind: demo.notificationDelivery.outboxEvent.kind,
        validation: await failure(() =>
          exceptionsCreate({
            client,
            path: { tenant_id: tenant },
            body: { title: 'x', unexpected: true } as never,
          }),
        ),
        unauthenticated: await failure(() =>
          exceptionsList({ client: createOpsClient({ baseUrl: rt.baseUrl }), path: { tenant_id: tenant } }),
        ),
      },
      tenant,
    );
  });

  it('JavaScript client (plain Node)', async () => {
    const tenant = tenantId('js');
    const { stdout } = await run(process.execPath, [`${root}tests/e2e/clients/smoke-javascript.mjs`], {
      env: env(tenant),
    });
    expectSeen(JSON.parse(stdout) as Seen, tenant);
  });

  it('Python client (python3, standard library only)', async () => {
    const tenant = tenantId('py');
    const { stdout } = await run('python3', ['-S', `${root}tests/e2e/clients/smoke_python.py`], {
      env: { ...env(tenant), PYTHONPATH: `${root}clients/python`, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expectSeen(JSON.parse(stdout) as Seen, tenant);
  });
});
