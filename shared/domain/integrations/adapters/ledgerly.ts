import * as z from 'zod/mini';
import type { AdapterDeclaration, OperationContract } from '../catalog';
import { credential, currency, RATE_LIMIT_FAILURES, text } from './fields';

/**
 * A cloud accounting system that takes an `Idempotency-Key` header (kept 24 hours) and limits each
 * tenant organisation to 5 calls in flight and 60 per minute (429 with Retry-After past either).
 */
const PERMANENT = [
  'invalid_credentials',
  'scope_missing',
  'validation_rejected',
  'account_code_unknown',
  'period_locked',
];

const write = (name: string, request: string, scope: string): OperationContract => ({
  name,
  request,
  scope,
  batch_size: 50,
  rate_limit: { concurrent: 5, per_minute: 60 },
  idempotency: {
    strategy: 'header',
    header: 'Idempotency-Key',
    key: 'derived from the export batch id and the document',
    retention_hours: 24,
  },
  retryable: [...RATE_LIMIT_FAILURES],
  permanent: PERMANENT,
});

export const ledgerly: AdapterDeclaration = {
  key: 'ledgerly',
  name: 'Ledgerly Accounting',
  // Exists only in the local sandbox: the export's and reconciliation's test double.
  status: 'test_double',
  category: 'accounting',
  direction: 'bidirectional',
  purpose:
    'Books invoices, payments and credit notes in a Ledgerly organisation and reads its payments back.',
  capabilities: [
    'export_invoices',
    'export_payments',
    'export_credit_notes',
    'read_payments',
    'idempotency_header',
  ],
  config: z.strictObject({
    organisation_id: z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'must be the organisation UUID')),
    region: z.enum(['eu', 'us', 'au']),
    base_currency: currency,
    sales_account_code: text(1, 10),
    payment_account_code: text(1, 10),
    tax_type: z.optional(text(1, 32)),
  }),
  config_example: {
    organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
    region: 'eu',
    base_currency: 'EUR',
    sales_account_code: '200',
    payment_account_code: '090',
  },
  probe: { endpoint: 'https://api.ledgerly.example' },
  secret: z.strictObject({ client_id: credential, client_secret: credential }),
  auth: {
    type: 'oauth2_client_credentials',
    secret_fields: ['client_id', 'client_secret'],
    notes:
      'A machine-to-machine app of the organisation; access tokens are fetched per run and never stored.',
  },
  scopes: {
    supported: [
      'invoices.write',
      'payments.write',
      'credit_notes.write',
      'payments.read',
      'contacts.read',
      'accounts.read',
    ],
    // payments.read: reconciliation, which the hub schedules for every accounting connection,
    // reads payments (read_payments); without it a connection on its defaults warned at once.
    default: ['invoices.write', 'payments.write', 'credit_notes.write', 'payments.read', 'accounts.read'],
  },
  required_mapping_keys: ['number', 'counterparty', 'amount', 'currency', 'issued_on', 'account_code'],
  mapping_example: {
    number: 'InvoiceNumber',
    counterparty: 'Contact.Name',
    amount: 'Total',
    currency: 'CurrencyCode',
    issued_on: 'Date',
    due_on: 'DueDate',
    account_code: 'LineItems[].AccountCode',
  },
  failure_modes: [...PERMANENT, ...RATE_LIMIT_FAILURES],
  operations: [
    write('export_invoices', 'POST /api/v2/invoices', 'invoices.write'),
    write('export_payments', 'POST /api/v2/payments', 'payments.write'),
    write('export_credit_notes', 'POST /api/v2/credit-notes', 'credit_notes.write'),
    {
      name: 'read_payments',
      request: 'GET /api/v2/payments?modified_since=',
      scope: 'payments.read',
      batch_size: 100,
      rate_limit: { concurrent: 5, per_minute: 60 },
      idempotency: { strategy: 'natural_key', lookup: 'read only', key: 'payment id' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['invalid_credentials', 'scope_missing'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['InvoiceNumber', 'Contact', 'Date', 'CurrencyCode', 'LineItems'],
    properties: {
      InvoiceNumber: { type: 'string' },
      Contact: { type: 'object', properties: { Name: { type: 'string' } } },
      Date: { type: 'string', format: 'date' },
      DueDate: { type: 'string', format: 'date' },
      CurrencyCode: { type: 'string' },
      LineItems: { type: 'array', items: { type: 'object' } },
    },
  },
  public_notes: [
    'Each document is sent with its own Idempotency-Key; the provider keeps keys 24 hours, so a retry within a day never books twice.',
    'At most 5 calls in flight and 60 per minute per organisation; a 429 carries Retry-After.',
  ],
};
