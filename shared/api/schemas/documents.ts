import * as z from 'zod/mini';
import { fromMinor, lineTotalMinor, MONEY_PATTERN, QUANTITY_PATTERN, toMinor } from '#shared/kernel/money';
import { describe, named, pageQuery, text } from './common';

export const DOCUMENT_TYPES = ['invoice', 'payment', 'credit_note'] as const;
export const DOCUMENT_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

export const DocumentType = z.enum(DOCUMENT_TYPES);
export const DocumentStatus = z.enum(DOCUMENT_STATUSES);

/** docs/api.md section 9: money is a decimal string with at most two decimals, never a float. */
export const Money = describe(
  z
    .string()
    .check(z.regex(MONEY_PATTERN, 'must be a decimal string with at most 2 decimals, like "1000.00"')),
  'Decimal string with at most 2 decimals',
);

const PositiveMoney = Money.check(
  z.refine((amount) => !MONEY_PATTERN.test(amount) || toMinor(amount) > 0n, {
    message: 'must be greater than 0',
    params: { code: 'too_small' },
  }),
);

const Quantity = describe(
  z.string().check(
    z.regex(QUANTITY_PATTERN, 'must be a decimal string with at most 3 decimals, like "2" or "1.5"'),
    z.refine((q) => !QUANTITY_PATTERN.test(q) || /[1-9]/.test(q), {
      message: 'must be greater than 0',
      params: { code: 'too_small' },
    }),
  ),
  'Decimal string with at most 3 decimals',
);

export const DocumentLine = named(
  z.strictObject({ description: text(1, 500, 'free'), quantity: Quantity, unit_amount: Money }),
  'DocumentLine',
);

const ExternalSystem = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(64),
    z.regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must match ^[a-z0-9][a-z0-9_.-]*$'),
  );

export const MAX_EXTERNAL_REFS = 10;

/**
 * The fields and bounds of docs/api.md section 9, with the rules that span fields: `due_on` not
 * before `issued_on`, `applies_to` only on payments and credit notes, and the lines' total equal
 * to `amount` (each line rounded half up to the cent, then summed exactly). Whether `applies_to`
 * names an invoice of this tenant in the same currency needs the table: the use case checks it.
 */
export const DocumentCreate = named(
  z
    .strictObject({
      document_type: DocumentType,
      number: text(1, 64),
      counterparty: text(1, 200, 'name'),
      currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters (ISO 4217)')),
      amount: PositiveMoney,
      issued_on: z.iso.date(),
      due_on: z.optional(z.nullable(z.iso.date())),
      external_refs: z.optional(
        z.record(ExternalSystem, text(1, 256)).check(
          z.refine((refs) => Object.keys(refs).length <= MAX_EXTERNAL_REFS, {
            message: `must have at most ${MAX_EXTERNAL_REFS} entries`,
            params: { code: 'too_big' },
          }),
        ),
      ),
      lines: z.optional(z.array(DocumentLine).check(z.minLength(1), z.maxLength(100))),
      applies_to: z.optional(z.nullable(text(1, 64))),
    })
    .check(
      z.superRefine((d, ctx) => {
        if (d.due_on && d.due_on < d.issued_on) {
          ctx.issues.push({
            code: 'custom',
            path: ['due_on'],
            message: 'must not be before issued_on',
            params: { code: 'before_issued_on' },
            input: d.due_on,
          });
        }
        if (d.applies_to && d.document_type === 'invoice') {
          ctx.issues.push({
            code: 'custom',
            path: ['applies_to'],
            message: 'only a payment or a credit note applies to an invoice',
            params: { code: 'not_applicable' },
            input: d.applies_to,
          });
        }
        // Only lines that are valid on their own are totalled (the others have their own errors).
        const valid = (l: { quantity: string; unit_amount: string }) =>
          QUANTITY_PATTERN.test(l.quantity) && /[1-9]/.test(l.quantity) && MONEY_PATTERN.test(l.unit_amount);
        const lines = d.lines ?? [];
        if (lines.length >= 1 && lines.length <= 100 && MONEY_PATTERN.test(d.amount) && lines.every(valid)) {
          const total = lines.reduce((sum, l) => sum + lineTotalMinor(l.quantity, l.unit_amount), 0n);
          if (total !== toMinor(d.amount)) {
            ctx.issues.push({
              code: 'custom',
              path: ['lines'],
              message: `the lines total ${fromMinor(total)}, not the amount ${fromMinor(toMinor(d.amount))}`,
              params: { code: 'total_mismatch' },
              input: lines,
            });
          }
        }
      }),
    ),
  'DocumentCreate',
);

export const DocumentStatusChange = named(
  z.strictObject({ status: DocumentStatus, note: z.optional(z.nullable(text(2, 255, 'free'))) }),
  'DocumentStatusChange',
);

export const DocumentListQuery = z.strictObject({
  document_type: z.optional(DocumentType),
  status: z.optional(DocumentStatus),
  counterparty: z.optional(text(1, 200, 'name')),
  ...pageQuery,
});

export const DocumentPath = z.object({ tenant_id: text(1, 64), document_id: text(1, 64) });
