import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { credential, RATE_LIMIT_FAILURES, text } from './fields';

const IBAN = z.string().check(z.regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/, 'must be an IBAN without spaces'));

export const bankFeed: AdapterDeclaration = {
  key: 'bank_feed',
  name: 'Open banking feed',
  status: 'available',
  category: 'bank_feed',
  direction: 'inbound',
  purpose: "Reads booked transactions of the tenant's bank accounts to reconcile payments against invoices.",
  capabilities: ['read_transactions', 'read_balances', 'reconciliation_source'],
  config: z.strictObject({
    institution_id: text(2, 64),
    account_ibans: z.array(IBAN).check(z.minLength(1), z.maxLength(10)),
    sync_interval_minutes: z.optional(z.number().check(z.int(), z.minimum(15), z.maximum(1440))),
  }),
  config_example: {
    institution_id: 'BANK_DE_EXAMPLE',
    account_ibans: ['DE89370400440532013000'],
    sync_interval_minutes: 60,
  },
  probe: { endpoint: 'https://api.bankfeed.example' },
  secret: z.strictObject({ consent_token: credential }),
  auth: {
    type: 'consent_token',
    secret_fields: ['consent_token'],
    notes: 'A PSD2 consent, valid up to 180 days; renew it before it lapses.',
  },
  scopes: {
    supported: ['accounts.read', 'transactions.read', 'balances.read'],
    default: ['accounts.read', 'transactions.read'],
  },
  required_mapping_keys: ['amount', 'currency', 'booked_on', 'reference'],
  mapping_example: {
    amount: 'transactionAmount.amount',
    currency: 'transactionAmount.currency',
    booked_on: 'bookingDate',
    reference: 'remittanceInformationUnstructured',
    counterparty: 'debtorName',
  },
  failure_modes: ['consent_expired', 'account_not_found', 'scope_missing', ...RATE_LIMIT_FAILURES],
  operations: [
    {
      name: 'read_transactions',
      request: 'GET /accounts/{iban}/transactions?date_from=',
      scope: 'transactions.read',
      batch_size: 500,
      rate_limit: { concurrent: 1, per_minute: 4 },
      idempotency: { strategy: 'natural_key', lookup: 'read only', key: 'transaction id' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['consent_expired', 'account_not_found', 'scope_missing'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['transactionId', 'bookingDate', 'transactionAmount'],
    properties: {
      transactionId: { type: 'string' },
      bookingDate: { type: 'string', format: 'date' },
      transactionAmount: {
        type: 'object',
        properties: { amount: { type: 'string' }, currency: { type: 'string' } },
      },
      remittanceInformationUnstructured: { type: 'string' },
    },
  },
  public_notes: [
    'Banks limit unattended reads to about four a day per account; the feed syncs no faster than sync_interval_minutes.',
  ],
};
