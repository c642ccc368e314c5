import { describe, expect, it } from 'vitest';
import { parse } from '#shared/api/issues';
import { canTransitionDocument } from '#shared/domain/documents/use-cases';
import { DocumentCreate, DocumentListQuery } from '#shared/api/schemas/documents';
import { ValidationError } from '#shared/kernel/errors';

const valid = {
  document_type: 'invoice',
  number: 'INV-1042',
  counterparty: 'Globex Ltd',
  currency: 'EUR',
  amount: '1000.00',
  issued_on: '2026-01-31',
};

/** The field errors of a body, as `path code` (what a client sees in `errors[]`). */
const errorsOf = (body: unknown): string[] => {
  try {
    parse(DocumentCreate, body);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors!.map((e) => `${e.path} ${e.code}`);
  }
};

describe('DocumentCreate (docs/api.md section 9)', () => {
  it('accepts the minimal body and a full one', () => {
    expect(errorsOf(valid)).toEqual([]);
    expect(
      errorsOf({
        ...valid,
        due_on: '2026-02-28',
        external_refs: { xero: 'abc-1', 'datev.v2': '77' },
        lines: [
          { description: 'Consulting', quantity: '8', unit_amount: '100.00' },
          { description: 'Travel', quantity: '1', unit_amount: '200' },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    ['amount', '0', 'amount too_small'],
    ['amount', '0.00', 'amount too_small'],
    ['amount', '-5.00', 'amount invalid_format'],
    ['amount', '10.005', 'amount invalid_format'],
    ['amount', '1e3', 'amount invalid_format'],
    ['amount', 1000, 'amount invalid_type'],
    ['amount', '10000000000000', 'amount invalid_format'],
    ['currency', 'eur', 'currency invalid_format'],
    ['currency', 'EURO', 'currency invalid_format'],
    ['document_type', 'receipt', 'document_type invalid_value'],
    ['number', '', 'number too_small'],
    ['number', 'x'.repeat(65), 'number too_big'],
    ['counterparty', 'x'.repeat(201), 'counterparty too_big'],
    ['issued_on', '2026-02-30', 'issued_on invalid_format'],
    ['issued_on', '2026-01-31T00:00:00Z', 'issued_on invalid_format'],
    ['status', 'open', 'status unrecognized_key'],
    ['id', 'mine', 'id unrecognized_key'],
  ])('%s = %j answers %s', (field, value, expected) => {
    expect(errorsOf({ ...valid, [field]: value })).toEqual([expected]);
  });

  it('refuses a due date before the issue date, on due_on', () => {
    expect(errorsOf({ ...valid, due_on: '2026-01-30' })).toEqual(['due_on before_issued_on']);
    expect(errorsOf({ ...valid, due_on: '2026-01-31' })).toEqual([]);
  });

  it('takes at most 10 external refs', () => {
    const refs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`sys${i}`, `r${i}`]));
    expect(errorsOf({ ...valid, external_refs: refs(10) })).toEqual([]);
    expect(errorsOf({ ...valid, external_refs: refs(11) })).toEqual(['external_refs too_big']);
    expect(errorsOf({ ...valid, external_refs: { 'Bad Key': 'x' } })).toEqual([
      'external_refs.Bad Key invalid_key',
    ]);
  });

  it('lets only payments and credit notes apply to an invoice', () => {
    expect(errorsOf({ ...valid, applies_to: 'inv-1' })).toEqual(['applies_to not_applicable']);
    expect(errorsOf({ ...valid, document_type: 'payment', applies_to: 'inv-1' })).toEqual([]);
    expect(errorsOf({ ...valid, document_type: 'credit_note', applies_to: 'inv-1' })).toEqual([]);
  });

  describe('lines', () => {
    const line = (quantity: string, unit_amount: string) => ({ description: 'x', quantity, unit_amount });

    it('must total the amount exactly, else 422 on lines', () => {
      expect(errorsOf({ ...valid, lines: [line('3', '333.33')] })).toEqual(['lines total_mismatch']);
      expect(errorsOf({ ...valid, amount: '999.99', lines: [line('3', '333.33')] })).toEqual([]);
    });

    it('round each line half up to the cent before summing', () => {
      // 1.5 x 0.99 = 1.485 -> 1.49; twice is 2.98 (a float sum of the exact products says 2.97).
      const lines = [line('1.5', '0.99'), line('1.5', '0.99')];
      expect(errorsOf({ ...valid, amount: '2.98', lines })).toEqual([]);
      expect(errorsOf({ ...valid, amount: '2.97', lines })).toEqual(['lines total_mismatch']);
    });

    it('sum 0.1 + 0.2 to exactly 0.30', () => {
      expect(errorsOf({ ...valid, amount: '0.30', lines: [line('1', '0.1'), line('1', '0.2')] })).toEqual([]);
    });

    it('take decimal strings only, with quantities above 0', () => {
      expect(errorsOf({ ...valid, lines: [{ description: 'x', quantity: 2, unit_amount: '500' }] })).toEqual([
        'lines.0.quantity invalid_type',
      ]);
      expect(errorsOf({ ...valid, lines: [line('0', '1000')] })).toEqual(['lines.0.quantity too_small']);
      expect(errorsOf({ ...valid, lines: [line('1.0001', '1000')] })).toEqual([
        'lines.0.quantity invalid_format',
      ]);
      expect(errorsOf({ ...valid, lines: [line('1', '1000.001')] })).toEqual([
        'lines.0.unit_amount invalid_format',
      ]);
      expect(errorsOf({ ...valid, lines: [] })).toEqual(['lines too_small']);
      expect(
        errorsOf({ ...valid, amount: '101', lines: Array.from({ length: 101 }, () => line('1', '1')) }),
      ).toEqual(['lines too_big']);
      expect(errorsOf({ ...valid, lines: [{ ...line('1', '1000'), total: '1000' }] })).toEqual([
        'lines.0.total unrecognized_key',
      ]);
    });
  });

  it('list filters take the enums and a counterparty', () => {
    expect(
      parse(DocumentListQuery, { status: 'open', document_type: 'invoice', counterparty: 'Globex' }),
    ).toMatchObject({ status: 'open', limit: 50 });
    expect(() => parse(DocumentListQuery, { status: 'closed' })).toThrow(ValidationError);
  });
});

describe('document state machine', () => {
  it.each([
    ['draft', 'open', true],
    ['draft', 'void', true],
    ['open', 'paid', true],
    ['open', 'void', true],
    ['draft', 'paid', false],
    ['draft', 'draft', false],
    ['open', 'draft', false],
    ['paid', 'void', false],
    ['paid', 'open', false],
    ['void', 'open', false],
  ] as const)('%s -> %s: %s', (from, to, allowed) => {
    expect(canTransitionDocument(from, to)).toBe(allowed);
  });
});
