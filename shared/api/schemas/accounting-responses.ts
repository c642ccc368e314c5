import * as z from 'zod/mini';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { AccountingExportStatus } from './accounting';

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
    /** Documents sent to the target in this attempt, and documents booked by it. */
    sent: z.int(),
    booked: z.int(),
  }),
  'AccountingExportAttemptRead',
);

export const AccountingExportRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    export_batch_id: z.string(),
    /** As requested, else the connection the worker resolved; null until then. */
    integration_connection_id: z.nullable(z.string()),
    status: AccountingExportStatus,
    document_count: z.int(),
    items: z.array(AccountingExportItemRead),
    attempts: z.array(AccountingExportAttemptRead),
    review_item_id: z.nullable(z.string()),
    simulate_failure: z.nullable(z.enum(['retryable', 'permanent'])),
    created_by: z.string(),
    created_at: DateTime,
    updated_at: DateTime,
    completed_at: z.nullable(DateTime),
  }),
  'AccountingExportRead',
);

export const AccountingExportList = named(listOf(AccountingExportRead), 'AccountingExportList');
