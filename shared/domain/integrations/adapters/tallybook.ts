import * as z from 'zod/mini';
import type { AdapterDeclaration, OperationContract } from '../catalog';
import { credential, currency, RATE_LIMIT_FAILURES } from './fields';

/**
 * An accounting system with no idempotency header: a retried create is only safe after a lookup
 * of the document by its number (the natural key), which the export must do first.
 */
const PERMANENT = [
  'invalid_credentials',
  'scope_missing',
  'validation_rejected',
  'duplicate_number',
  'ledger_closed',
];

const write = (name: string, request: string, scope: string): OperationContract => ({
  name,
  request,
  scope,
  batch_size: 1,
  rate_limit: { concurrent: 2, per_minute: 120 },
  idempotency: {
    strategy: 'natural_key',
    lookup: 'GET /v1/companies/{company_id}/documents?number=<number>&type=<document_type>',
    key: 'document type and number',
  },
  retryable: [...RATE_LIMIT_FAILURES],
  permanent: PERMANENT,
});

export const tallybook: AdapterDeclaration = {
  key: 'tallybook',
  name: 'Tallybook',
  // Exists only in the local sandbox: the export's and reconciliation's test double.
  status: 'test_double',
  category: 'accounting',
  direction: 'outbound',
  purpose: "Books invoices, payments and credit notes one by one in a Tallybook company's ledger.",
  capabilities: ['export_invoices', 'export_payments', 'export_credit_notes', 'lookup_by_number'],
  config: z.strictObject({
    company_id: z.string().check(z.regex(/^[0-9]{4,12}$/, 'must be the numeric company id')),
    ledger: z.enum(['sales', 'general']),
    currency,
    round_to_cents: z.optional(z.boolean()),
  }),
  config_example: { company_id: '104522', ledger: 'sales', currency: 'EUR' },
  probe: { endpoint: 'https://api.tallybook.example' },
  secret: z.strictObject({ api_key: credential }),
  auth: {
    type: 'api_key',
    secret_fields: ['api_key'],
    notes: 'Sent as the X-Api-Key header; a key belongs to one company.',
  },
  scopes: {
    supported: ['invoices.write', 'payments.write', 'credit_notes.write', 'documents.read'],
    default: ['invoices.write', 'payments.write', 'credit_notes.write', 'documents.read'],
  },
  required_mapping_keys: ['number', 'counterparty', 'amount', 'currency', 'issued_on'],
  mapping_example: {
    number: 'doc_no',
    counterparty: 'party_name',
    amount: 'gross_total',
    currency: 'ccy',
    issued_on: 'doc_date',
  },
  failure_modes: [...PERMANENT, ...RATE_LIMIT_FAILURES],
  operations: [
    write('export_invoices', 'POST /v1/companies/{company_id}/invoices', 'invoices.write'),
    write('export_payments', 'POST /v1/companies/{company_id}/payments', 'payments.write'),
    write('export_credit_notes', 'POST /v1/companies/{company_id}/credit-notes', 'credit_notes.write'),
  ],
  payload_schema: {
    type: 'object',
    required: ['doc_no', 'party_name', 'gross_total', 'ccy', 'doc_date'],
    properties: {
      doc_no: { type: 'string' },
      party_name: { type: 'string' },
      gross_total: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' },
      ccy: { type: 'string' },
      doc_date: { type: 'string', format: 'date' },
    },
  },
  public_notes: [
    'No idempotency header: before each create the export looks the document up by type and number, so a retry never books twice.',
    'One document per call; documents.read is needed for that lookup.',
  ],
};
