import { beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { type AccountingDeps, createExport } from '#shared/domain/accounting/use-cases';
import { ConflictError, ValidationError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { connectChannel } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';

/**
 * The API's use cases of the accounting export (shared/domain/accounting/use-cases.ts) over
 * DynamoDB Local, on the cases a client meets when it names documents and connections: what is
 * looked up by id and what is taken as given, which connections an export may name, and the
 * words of the 409 and 422 answers. The worker's side is tests/connected/accounting-export.test.ts.
 */

let db: Db;
let deps: AccountingDeps;
const actor = principal('acct-uc');
const tenant = () => `t-${newId().slice(-10)}`;
const SAME_BATCH_OTHER_BODY = 'This export_batch_id was used with another request body.';

beforeAll(async () => {
  ({ db } = await freshDb());
  deps = {
    exports: accountingStore(db),
    documents: documentStore(db),
    connections: connectionStore(db),
    clock: systemClock,
  };
});

describe('create', () => {
  it('a document that carries a document_id beside its own fields is free-form: sent as given, named by that id', async () => {
    const tenantId = tenant();
    const given = { document_id: 'ext-7', number: 'INV-7', amount: '7.00', currency: 'EUR' };
    const { export: e, created } = await createExport(deps, actor, tenantId, {
      export_batch_id: `B-${newId()}`,
      documents: [given],
    });
    expect(created).toBe(true);
    expect(e.items.map((i) => i.document_ref)).toEqual(['ext-7']);
    expect((await deps.exports.get(tenantId, e.id))!.documents).toEqual([given]);
  });

  it('a document id the tenant does not have is 422 with its path and why', async () => {
    const err = await createExport(deps, actor, tenant(), {
      export_batch_id: `B-${newId()}`,
      documents: [{ document_id: newId() }],
    }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      {
        path: 'documents.0.document_id',
        code: 'not_found',
        message: 'no document with this id in this tenant',
      },
    ]);
  });

  it("a connection of the tenant that is not an accounting one (a notification channel's) is 422", async () => {
    const tenantId = tenant();
    const telegram = await connectChannel(db, tenantId, 'telegram');
    const err = await createExport(deps, actor, tenantId, {
      export_batch_id: `B-${newId()}`,
      integration_connection_id: telegram.id,
      documents: [{ number: 'INV-1', amount: '1.00', currency: 'EUR' }],
    }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'integration_connection_id', code: 'not_found' }),
    ]);
    expect((await deps.exports.list(tenantId, {}, { limit: 10 })).items).toEqual([]);
  });

  it('a batch id taken by another body is 409 saying so, whether or not the new body is valid', async () => {
    const tenantId = tenant();
    const export_batch_id = `B-${newId()}`;
    await createExport(deps, actor, tenantId, {
      export_batch_id,
      documents: [{ number: 'INV-1', amount: '1.00', currency: 'EUR' }],
    });
    for (const documents of [
      [{ number: 'INV-2', amount: '2.00', currency: 'EUR' }],
      [{ document_id: newId() }],
    ]) {
      const err = await createExport(deps, actor, tenantId, { export_batch_id, documents }).catch(
        (x: unknown) => x,
      );
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as ConflictError).message).toBe(SAME_BATCH_OTHER_BODY);
    }
  });
});
