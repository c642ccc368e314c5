import * as z from 'zod/mini';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { AccountingExportStatus } from './accounting';
import { accountingExportRecord } from '#shared/table/entities/accounting-export';
import { readSchema } from './records';

/** The accounting export's response records (docs/api.md section 9.2); not bundled by handlers. */

export const AccountingExportItemRead = named(
  z.object({
    index: z.int(),
    /** The `document_id`, or the `number` of a document given in the request. */
    document_ref: z.string(),
    status: z.enum(['pending', 'exported', 'failed']),
    /** A code of the error-class table (docs/api.md section 9.2), or null. */
    error_code: z.nullable(z.string()),
    retryable: z.nullable(z.boolean()),
    /**
     * What the target said about the document when it refused it, in its own words (Xero's
     * ValidationErrors, QuickBooks' Fault Message and Detail), or why it was not sent; never a
     * token or a secret. Absent on exports written before it was kept.
     */
    error_message: z.optional(z.nullable(z.string())),
    /** The target's id of the booked document. */
    external_id: z.nullable(z.string()),
  }),
  'AccountingExportItemRead',
);

export const AccountingExportAttemptRead = named(
  z.object({
    attempt: z.int(),
    at: DateTime,
    outcome: z.enum(['exported', 'retryable_failure', 'permanent_failure', 'gated']),
    error_code: z.nullable(z.string()),
    /** The target's message for `error_code` (the first refused document's), as on the item. */
    error_message: z.optional(z.nullable(z.string())),
    /** Documents sent to the target in this attempt, and documents booked by it. */
    sent: z.int(),
    booked: z.int(),
  }),
  'AccountingExportAttemptRead',
);

export const AccountingExportRead = named(
  readSchema(accountingExportRecord, {
    status: AccountingExportStatus,
    items: z.array(AccountingExportItemRead),
    attempts: z.array(AccountingExportAttemptRead),
    simulate_failure: z.enum(['retryable', 'permanent']),
  }),
  'AccountingExportRead',
);

export const AccountingExportList = named(listOf(AccountingExportRead), 'AccountingExportList');
