import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import {
  changeDocumentStatus,
  createDocument,
  getDocument,
  listDocuments,
} from '#shared/domain/documents/use-cases';
import type { DocumentCreate } from '#shared/api/schemas/documents';
import { ConflictError, InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';
import type * as z from 'zod/mini';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const deps = () => ({ documents: stores.documents, zones: stores.zones, clock: systemClock });
const actor = principal('accountant-1', {}, true);
let seq = 0;
const input = (
  overrides: Partial<z.output<typeof DocumentCreate>> = {},
): z.output<typeof DocumentCreate> => ({
  document_type: 'invoice',
  number: `INV-${++seq}`,
  counterparty: 'Globex Ltd',
  currency: 'EUR',
  amount: '1000',
  issued_on: '2026-01-31',
  ...overrides,
});
const auditOf = (tenantId: string, id: string) =>
  drain((cursor) =>
    stores.audit.list(tenantId, { entity_type: 'document', entity_id: id }, { limit: 100, cursor }),
  );
const itemCount = async () =>
  (await db.doc.send(new ScanCommand({ TableName: db.tableName, Select: 'COUNT' }))).Count ?? 0;

describe('documents', () => {
  it('are created as draft, amounts in two decimals, lines with their totals, with one audit event', async () => {
    const d = await createDocument(deps(), actor, 'acme', {
      ...input({ amount: '0.3' }),
      lines: [
        { description: 'a', quantity: '1', unit_amount: '0.1' },
        { description: 'b', quantity: '1', unit_amount: '0.2' },
      ],
      external_refs: { xero: 'X-1' },
    });
    expect(d).toMatchObject({
      status: 'draft',
      amount: '0.30',
      due_on: null,
      applies_to: null,
      external_refs: { xero: 'X-1' },
      lines: [
        { description: 'a', quantity: '1', unit_amount: '0.10', total: '0.10' },
        { description: 'b', quantity: '1', unit_amount: '0.20', total: '0.20' },
      ],
    });
    expect(d.created_at).toBe(d.updated_at);
    expect(await getDocument(deps(), 'acme', d.id)).toEqual(d);
    const [created] = await auditOf('acme', d.id);
    expect(created).toMatchObject({ event_type: 'document.created', summary: `invoice ${d.number}` });
    expect(JSON.parse(created!.metadata_json!)).toEqual({
      document_type: 'invoice',
      number: d.number,
      amount: '0.30',
      currency: 'EUR',
      applies_to: null,
    });
    await expect(getDocument(deps(), 'acme', 'no-such-document')).rejects.toThrow(NotFoundError);
  });

  it('keep (document_type, number) unique per tenant: 409, and the loser stores nothing', async () => {
    await createDocument(deps(), actor, 'uniq', input({ number: 'N-1' }));
    const before = await itemCount();
    await expect(createDocument(deps(), actor, 'uniq', input({ number: 'N-1' }))).rejects.toThrow(
      new ConflictError('This tenant already has an invoice numbered N-1.'),
    );
    expect(await itemCount()).toBe(before);
    // Another type, or another tenant, may use the same number.
    await createDocument(deps(), actor, 'uniq', input({ number: 'N-1', document_type: 'payment' }));
    await expect(
      createDocument(deps(), actor, 'uniq', input({ number: 'N-1', document_type: 'payment' })),
    ).rejects.toThrow(new ConflictError('This tenant already has a payment numbered N-1.'));
    await createDocument(deps(), actor, 'uniq-2', input({ number: 'N-1' }));
  });

  it('two racing creates of one number: exactly one is stored', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => createDocument(deps(), actor, 'race-n', input({ number: 'SAME' }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected'))
      expect(r.reason).toBeInstanceOf(ConflictError);
    expect((await listDocuments(deps(), 'race-n', {}, { limit: 10 })).items).toHaveLength(1);
  });

  describe('applies_to', () => {
    const paymentFor = (invoiceId: string, overrides: Partial<z.output<typeof DocumentCreate>> = {}) =>
      input({ document_type: 'payment', applies_to: invoiceId, ...overrides });
    const fieldErrors = async (promise: Promise<unknown>) => {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ValidationError);
      return (err as ValidationError).errors!.map((e) => `${e.path} ${e.code}: ${e.message}`);
    };

    it('names an invoice of the same tenant and currency', async () => {
      const invoice = await createDocument(deps(), actor, 'apply', input());
      const payment = await createDocument(deps(), actor, 'apply', paymentFor(invoice.id));
      expect(payment.applies_to).toBe(invoice.id);
      const before = await itemCount();
      expect(await fieldErrors(createDocument(deps(), actor, 'apply', paymentFor('no-such-id')))).toEqual([
        'applies_to not_found: no invoice with this id in this tenant',
      ]);
      expect(await fieldErrors(createDocument(deps(), actor, 'other', paymentFor(invoice.id)))).toEqual([
        'applies_to not_found: no invoice with this id in this tenant',
      ]);
      expect(
        await fieldErrors(
          createDocument(deps(), actor, 'apply', paymentFor(invoice.id, { currency: 'USD' })),
        ),
      ).toEqual(['applies_to currency_mismatch: the invoice is in EUR, not USD']);
      expect(await fieldErrors(createDocument(deps(), actor, 'apply', paymentFor(payment.id)))).toEqual([
        'applies_to not_an_invoice: names a payment, not an invoice',
      ]);
      await changeDocumentStatus(deps(), actor, 'apply', invoice.id, { status: 'void' });
      const afterVoid = await itemCount();
      expect(await fieldErrors(createDocument(deps(), actor, 'apply', paymentFor(invoice.id)))).toEqual([
        'applies_to invoice_void: the invoice is void',
      ]);
      expect(await itemCount()).toBe(afterVoid);
      // Only the void's audit and outbox events (the document is replaced).
      expect(afterVoid).toBe(before + 2);
    });

    it('is checked again in the transaction: an invoice voided after the read fails the write', async () => {
      const invoice = await createDocument(deps(), actor, 'apply-race', input());
      const store = stores.documents;
      // The invoice is read as open, then voided before the payment's transaction runs.
      const racing = {
        ...store,
        get: async (tenantId: string, id: string) => {
          const found = await store.get(tenantId, id);
          await changeDocumentStatus(deps(), actor, 'apply-race', invoice.id, { status: 'void' });
          return found;
        },
      };
      const before = await itemCount();
      const err = await createDocument({ documents: racing, clock: systemClock }, actor, 'apply-race', {
        ...paymentFor(invoice.id),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors).toEqual([
        { path: 'applies_to', code: 'invoice_void', message: 'the invoice became void meanwhile' },
      ]);
      // The void's audit and outbox events; no payment, no number claim.
      expect(await itemCount()).toBe(before + 2);
    });
  });

  describe('status', () => {
    it('draft -> open -> paid, one audit event per change with from, to and note', async () => {
      const d = await createDocument(deps(), actor, 'flow', input());
      const opened = await changeDocumentStatus(deps(), actor, 'flow', d.id, { status: 'open' });
      const paid = await changeDocumentStatus(deps(), actor, 'flow', d.id, {
        status: 'paid',
        note: 'bank 42',
      });
      expect(paid.status).toBe('paid');
      expect(paid.updated_at >= opened.updated_at).toBe(true);
      expect(await getDocument(deps(), 'flow', d.id)).toEqual(paid);
      const events = await auditOf('flow', d.id);
      expect(events.map((e) => e.event_type)).toEqual([
        'document.status_changed',
        'document.status_changed',
        'document.created',
      ]);
      expect(JSON.parse(events[0]!.metadata_json!)).toEqual({ from: 'open', to: 'paid', note: 'bank 42' });
      expect(events.map((e) => e.summary)).toEqual(['open -> paid', 'draft -> open', `invoice ${d.number}`]);
    });

    it('refuses every move the state machine does not allow, writing nothing', async () => {
      const d = await createDocument(deps(), actor, 'refuse', input());
      await expect(changeDocumentStatus(deps(), actor, 'refuse', d.id, { status: 'paid' })).rejects.toThrow(
        new InvalidTransitionError('A document that is draft cannot become paid.'),
      );
      await changeDocumentStatus(deps(), actor, 'refuse', d.id, { status: 'void' });
      for (const status of ['draft', 'open', 'paid', 'void'] as const) {
        await expect(changeDocumentStatus(deps(), actor, 'refuse', d.id, { status })).rejects.toThrow(
          InvalidTransitionError,
        );
      }
      expect(await auditOf('refuse', d.id)).toHaveLength(2);
    });

    it('two racing transitions: exactly one wins, the other is 409, one audit event', async () => {
      for (let round = 0; round < 3; round++) {
        const d = await createDocument(deps(), actor, 'race', input());
        await changeDocumentStatus(deps(), actor, 'race', d.id, { status: 'open' });
        const results = await Promise.allSettled([
          changeDocumentStatus(deps(), principal('a'), 'race', d.id, { status: 'paid' }),
          changeDocumentStatus(deps(), principal('b'), 'race', d.id, { status: 'void' }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        // The loser reads the winner's status (a refused move) or loses the conditional write.
        expect(lost[0]!.reason).toBeInstanceOf(InvalidTransitionError);
        expect([
          'The document changed meanwhile; read it again.',
          expect.stringMatching(/^An? document that is \w+ cannot become \w+\.$/),
        ]).toContainEqual((lost[0]!.reason as Error).message);
        expect((await getDocument(deps(), 'race', d.id)).status).toBe(
          (won[0] as PromiseFulfilledResult<{ status: string }>).value.status,
        );
        expect(await auditOf('race', d.id)).toHaveLength(3);
      }
    });
  });
});

describe('listing', () => {
  const T = 'lists';
  beforeAll(async () => {
    // D0..D8: types cycle invoice/payment/credit_note, counterparty alternates A/B, D6..D8 open.
    for (let i = 0; i < 9; i++) {
      const d = await createDocument(
        deps(),
        actor,
        T,
        input({
          document_type: (['invoice', 'payment', 'credit_note'] as const)[i % 3],
          number: `D${i}`,
          counterparty: i % 2 ? 'B' : 'A',
        }),
      );
      if (i >= 6) await changeDocumentStatus(deps(), actor, T, d.id, { status: 'open' });
    }
  });
  const numbers = async (filter: Parameters<typeof listDocuments>[2]) =>
    (await drain((cursor) => listDocuments(deps(), T, filter, { limit: 2, cursor }))).map((d) => d.number);

  it('newest first, by every filter and their combinations, across pages', async () => {
    expect(await numbers({})).toEqual(['D8', 'D7', 'D6', 'D5', 'D4', 'D3', 'D2', 'D1', 'D0']);
    expect(await numbers({ status: 'open' })).toEqual(['D8', 'D7', 'D6']);
    expect(await numbers({ document_type: 'invoice' })).toEqual(['D6', 'D3', 'D0']);
    expect(await numbers({ counterparty: 'B' })).toEqual(['D7', 'D5', 'D3', 'D1']);
    expect(await numbers({ status: 'open', document_type: 'payment' })).toEqual(['D7']);
    expect(await numbers({ status: 'draft', counterparty: 'A' })).toEqual(['D4', 'D2', 'D0']);
    expect(await numbers({ document_type: 'credit_note', counterparty: 'A' })).toEqual(['D8', 'D2']);
  });

  it('a cursor is refused for another filter', async () => {
    const page = await listDocuments(deps(), T, { status: 'draft' }, { limit: 1 });
    await expect(
      listDocuments(deps(), T, { status: 'open' }, { limit: 1, cursor: page.next_cursor! }),
    ).rejects.toThrow(/cursor/);
  });
});
