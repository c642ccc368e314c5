import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { loadConfig } from '#functions/config';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import { documentIdempotencyKey } from '#shared/domain/accounting/export-send';
import type { AccountingExport } from '#shared/domain/accounting/ports';
import { type AccountingDeps, createExport } from '#shared/domain/accounting/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { newId, systemClock } from '#shared/kernel/ids';
import type { AccountingTargetName } from '#local/accounting-sandbox';
import { ProviderSandbox } from '#local/provider-sandbox';
import { connectAccounting } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { movedClock, pacedBy } from '#tests/support/moved-clock';
import { principal } from '#tests/support/fixtures';

/**
 * The worker's run of an export (shared/domain/accounting/export-run.ts) over DynamoDB Local and
 * the loopback sandbox, on what tests/connected/accounting-export.test.ts leaves out: each
 * document goes through its own type's operation, a run that died keeps others out until its
 * lease ends, a target that cannot be reached is a network error, and no two documents share an
 * idempotency key.
 */

let db: Db;
let sandbox: ProviderSandbox;
let api: AccountingDeps;
let worker: ExportRunDeps;
let sandboxUrl: string;
const secrets = connectionSecretsFor({ store: 'memory', kmsKeyId: undefined });
const actor = principal('acct-run');

const workerWith = (urls: { ledgerly: string; tallybook: string }): ExportRunDeps => ({
  exports: api.exports,
  connections: activeConnectionReader(connectionStore(db), secrets),
  results: connectionResults(db),
  targets: accountingTargets(
    loadConfig({
      OPS_LEDGERLY_API_URL: urls.ledgerly,
      OPS_TALLYBOOK_API_URL: urls.tallybook,
      OPS_PROVIDER_TIMEOUT_MS: '5000',
    }).providers,
  ),
  ...pacedBy(movedClock()),
  maxAttempts: 3,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
  queueSecondMs: 1000,
});

beforeAll(async () => {
  ({ db } = await freshDb());
  sandbox = new ProviderSandbox();
  sandboxUrl = await sandbox.listen();
  api = {
    exports: accountingStore(db),
    documents: documentStore(db),
    connections: connectionStore(db),
    clock: systemClock,
  };
  worker = workerWith({ ledgerly: `${sandboxUrl}/ledgerly`, tallybook: `${sandboxUrl}/tallybook` });
});

afterAll(async () => {
  await sandbox.stop();
});

async function tenantWith(target: AccountingTargetName) {
  const tenantId = `t-${newId().slice(-10)}`;
  await connectAccounting(db, secrets, tenantId, target);
  return tenantId;
}

const doc = (fields: Record<string, unknown> = {}) => ({
  number: `INV-${newId().slice(-12)}`,
  amount: '12.00',
  currency: 'EUR',
  counterparty: 'Acme',
  ...fields,
});

async function queued(tenantId: string, documents: Record<string, unknown>[]) {
  const { export: e } = await createExport(api, actor, tenantId, {
    export_batch_id: `B-${newId()}`,
    documents,
  } as Parameters<typeof createExport>[3]);
  return e;
}

describe('the run', () => {
  it("sends each document through its type's operation; a type without one goes as an invoice", async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await queued(tenantId, [
      doc({ document_type: 'invoice' }),
      doc({ document_type: 'credit_note' }),
      doc({ document_type: 'receipt' }),
    ]);
    const before = sandbox.accounting.calls.length;
    expect(await runExport(worker, e.id, tenantId, 1)).toMatchObject({ result: 'exported' });
    const posts = sandbox.accounting.calls
      .slice(before)
      .filter((c) => c.method === 'POST' && c.path.startsWith('/api/'));
    expect(posts.map((c) => c.path)).toEqual(['/api/v2/invoices', '/api/v2/credit-notes']);
  });

  it('a run that died keeps the export until its lease ends: a message meanwhile is busy and sends nothing', async () => {
    const tenantId = await tenantWith('tallybook');
    const e = await queued(tenantId, [doc()]);
    const dying: ExportRunDeps = {
      ...worker,
      exports: {
        ...worker.exports,
        finish: () => Promise.reject(new Error('the function timed out')),
      },
    };
    await expect(runExport(dying, e.id, tenantId, 1)).rejects.toThrow('timed out');
    const calls = sandbox.accounting.calls.length;
    expect(await runExport(worker, e.id, tenantId, 2)).toEqual({
      action: 'retry',
      result: 'busy',
      delaySeconds: 60,
      reason: 'leased',
    });
    expect(sandbox.accounting.calls).toHaveLength(calls);
  });

  it('a target that cannot be reached is a network error: retried, its claim kept for the next run to resolve', async () => {
    const tenantId = await tenantWith('tallybook');
    const e = await queued(tenantId, [doc()]);
    // A loopback port nothing listens on: the connection is refused.
    const unreachable = workerWith({
      ledgerly: 'http://127.0.0.1:9/ledgerly',
      tallybook: 'http://127.0.0.1:9/tb',
    });
    expect(await runExport(unreachable, e.id, tenantId, 1)).toMatchObject({
      action: 'retry',
      result: 'retrying',
      reason: 'network_error',
    });
    expect((await api.exports.get(tenantId, e.id))!.items[0]).toMatchObject({
      status: 'pending',
      error_code: 'network_error',
    });
    expect(await api.exports.bookings(tenantId, e.id)).toEqual([
      expect.objectContaining({ index: 0, state: 'sending' }),
    ]);
  });
});

describe('pacing', () => {
  it("spaces a run's calls by the operation's rate limit on the clock, pausing through the wait port, never sleeping", async () => {
    // tallybook: one document per call, 120 calls per minute, so one call every 500 ms.
    const tenantId = await tenantWith('tallybook');
    const e = await queued(tenantId, [doc(), doc(), doc()]);
    const moved = movedClock('frozen');
    const calledAt: number[] = [];
    const paced: ExportRunDeps = {
      ...worker,
      ...pacedBy(moved),
      targets: {
        open: (connection, secret) => {
          const target = worker.targets.open(connection, secret)!;
          return {
            ...target,
            book: (documents) => {
              calledAt.push(moved.clock.now().getTime());
              return target.book(documents);
            },
          };
        },
      },
    };
    expect(await runExport(paced, e.id, tenantId, 1)).toMatchObject({ result: 'exported' });
    // One call every 500 ms on the clock; each pause asked for the gap, the first call for none.
    expect(calledAt.map((t) => t - calledAt[0]!)).toEqual([0, 500, 1000]);
    expect(moved.waits).toEqual([500, 500]);
  });
});

describe('the end of a run', () => {
  it("a run that booked some and was refused the rest: partially_exported, the refusal's code as the reason, the workflow event", async () => {
    const tenantId = await tenantWith('tallybook');
    const e = await queued(tenantId, [doc(), doc()]);
    sandbox.accounting.script('tallybook', [{ ok: true }, { status: 422 }]);
    const written: unknown[] = [];
    const watched: ExportRunDeps = {
      ...worker,
      exports: {
        ...worker.exports,
        finish: (...args) => {
          written.push(args[4]);
          return worker.exports.finish(...args);
        },
      },
    };
    const outcome = await runExport(watched, e.id, tenantId, 1);
    const after = (await api.exports.get(tenantId, e.id))!;
    const refused = after.items[1]!.error_code;
    expect(refused).not.toBeNull();
    expect(outcome).toMatchObject({ action: 'ack', result: 'partially_exported', reason: refused });
    expect(after.attempts.map((a) => [a.outcome, a.error_code, a.sent, a.booked])).toEqual([
      ['permanent_failure', refused, 2, 1],
    ]);
    expect(written).toEqual([
      expect.objectContaining({
        tenant_id: tenantId,
        payload: expect.objectContaining({ event_type: 'accounting_export.failed', entity_id: e.id }),
      }),
    ]);
  });

  it('a run whose lease was taken over writes nothing and says so', async () => {
    const tenantId = await tenantWith('tallybook');
    const e = await queued(tenantId, [doc()]);
    const overtaken: ExportRunDeps = {
      ...worker,
      exports: { ...worker.exports, finish: () => Promise.resolve(false) },
    };
    await expect(runExport(overtaken, e.id, tenantId, 1)).rejects.toThrow(
      'the export changed under the run: its lease expired',
    );
  });
});

describe('documentIdempotencyKey', () => {
  const exp = (export_batch_id: string) => ({ tenant_id: 't-1', export_batch_id }) as AccountingExport;
  const item = (index: number, document_ref: string) =>
    ({ index, document_ref }) as AccountingExport['items'][number];

  it('is the same for the same document of the same batch, and differs wherever the parts are split', () => {
    const key = documentIdempotencyKey(exp('B-1'), item(12, 'INV-1'));
    expect(key).toMatch(/^ops-[\w-]{43}$/);
    expect(documentIdempotencyKey(exp('B-1'), item(12, 'INV-1'))).toBe(key);
    expect(documentIdempotencyKey(exp('B-11'), item(2, 'INV-1'))).not.toBe(key);
    expect(documentIdempotencyKey(exp('B-1'), item(1, '2INV-1'))).not.toBe(key);
  });
});
