import { beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { type AccountingDeps, createExport } from '#shared/domain/accounting/use-cases';
import { createDocument } from '#shared/domain/documents/use-cases';
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

  it("a payment or credit note named by id carries its invoice's number (what the target knows the invoice by)", async () => {
    const tenantId = tenant();
    const documentDeps = { documents: documentStore(db), clock: systemClock };
    const fields = { counterparty: 'Acme', currency: 'EUR', amount: '10.00', issued_on: '2026-11-01' };
    const invoice = await createDocument(documentDeps, actor, tenantId, {
      ...fields,
      document_type: 'invoice',
      number: `INV-${newId().slice(-8)}`,
    });
    const [payment, credit, loose] = await Promise.all(
      (['payment', 'credit_note', 'payment'] as const).map((document_type, i) =>
        createDocument(documentDeps, actor, tenantId, {
          ...fields,
          document_type,
          number: `D-${i}-${newId().slice(-8)}`,
          applies_to: i < 2 ? invoice.id : null,
        }),
      ),
    );
    const { export: e } = await createExport(deps, actor, tenantId, {
      export_batch_id: `B-${newId()}`,
      documents: [payment!, credit!, loose!, invoice].map((d) => ({ document_id: d.id })),
    });
    const sent = (await deps.exports.get(tenantId, e.id))!.documents;
    expect(sent.map((d) => [d.document_type, d.invoice_number])).toEqual([
      ['payment', invoice.number],
      ['credit_note', invoice.number],
      ['payment', undefined],
      ['invoice', undefined],
    ]);
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
