import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { TRANSACT_ATTEMPTS } from '#functions/adapters/transact';
import { exceptionStore } from '#functions/adapters/exception-store';
import type { createStores } from '#functions/adapters/stores';
import { localClient } from '#local/dynamodb-local';
import { changeExceptionStatus } from '#shared/domain/exceptions/use-cases';
import { InvalidTransitionError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { dynamoEndpoint, freshDb } from '#tests/support/db';
import { audit, exceptionRecord, principal, recorded } from '#tests/support/fixtures';

/**
 * In the cloud, a transaction that meets another one in flight on the same item is cancelled
 * with the reason `TransactionConflict` (DynamoDB Local serialises transactions and never does:
 * the fault is injected with aws-sdk-client-mock, the table is real). `transact`
 * (functions/adapters/transact.ts) tries again briefly; a conflict that persists is a lost race,
 * answered like a failed condition, so the use case answers 409 and not 500.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const conflict = () =>
  new TransactionCanceledException({
    message:
      'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
    $metadata: {},
    CancellationReasons: [
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
      { Code: 'None' },
    ],
  });

/** A client whose TransactWriteItems calls the test scripts; everything else is never sent through it. */
const scripted = () => {
  const doc = documentClient(localClient(dynamoEndpoint()));
  return { doc, mock: mockClient(doc) };
};
let restore: (() => void) | undefined;
afterEach(() => restore?.());

/** Reads from the real table, the status change's transaction through `doc`. */
const changeStatusThrough = (doc: Db['doc'], tenantId: string, id: string) =>
  changeExceptionStatus(
    {
      exceptions: { ...stores.exceptions, transition: exceptionStore({ ...db, doc }).transition },
      clock: systemClock,
    },
    principal('actor', {}, true),
    tenantId,
    id,
    { status: 'resolved' },
  );

const stored = async (tenantId: string) => {
  const rec = exceptionRecord(tenantId);
  await stores.exceptions.create(
    rec,
    audit(tenantId, 'exception', rec.id),
    recorded('exception.created', rec),
  );
  return rec;
};

describe('transact under TransactionConflict', () => {
  it('tries again after a conflict, and the change goes through', async () => {
    const { doc, mock } = scripted();
    restore = () => mock.restore();
    const real = documentClient(localClient(dynamoEndpoint()));
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(conflict())
      .callsFake((input) => real.send(new TransactWriteCommand(input)));
    const rec = await stored('conflict-once');

    const changed = await changeStatusThrough(doc, 'conflict-once', rec.id);
    expect(changed.status).toBe('resolved');
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect((await stores.exceptions.get('conflict-once', rec.id))?.status).toBe('resolved');
  });

  it(`answers a conflict that persists over ${TRANSACT_ATTEMPTS} attempts as a lost race: 409, nothing written`, async () => {
    const { doc, mock } = scripted();
    restore = () => mock.restore();
    mock.on(TransactWriteCommand).rejects(conflict());
    const rec = await stored('conflict-always');

    const started = performance.now();
    const err = await changeStatusThrough(doc, 'conflict-always', rec.id).catch((e) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(InvalidTransitionError);
    expect(err.status).toBe(409);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(TRANSACT_ATTEMPTS);
    // Briefly: two pauses of tens of milliseconds, not a client's retry budget.
    expect(elapsed).toBeGreaterThanOrEqual(30);
    expect(elapsed).toBeLessThan(1_000);
    expect((await stores.exceptions.get('conflict-always', rec.id))?.status).toBe('open');
  });
});
