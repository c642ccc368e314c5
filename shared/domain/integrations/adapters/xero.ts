import * as z from 'zod/mini';
import type { AdapterDeclaration, OperationContract } from '../catalog';
import { currency, RATE_LIMIT_FAILURES, text } from './fields';

/**
 * Xero Accounting API (https://api.xero.com/api.xro/2.0), as Xero's own OpenAPI document
 * (XeroAPI/Xero-OpenAPI, xero_accounting.yaml and xero-identity.yaml) and its developer pages
 * describe it; docs/connecting-accounting.md cites each source. Every call names the organisation
 * in the `xero-tenant-id` header. Limits per organisation and app: 60 calls a minute, 5 in
 * flight, 5,000 a day; past any of them 429 with `Retry-After` (and `X-Rate-Limit-Problem`:
 * `minute`, `concurrent` or `day`).
 */

/** Xero's documented failures (https://developer.xero.com/documentation/api/accounting/responsecodes). */
const PERMANENT = [
  'validation_rejected', // 400 ValidationException (e.g. a duplicate InvoiceNumber, an unknown AccountCode)
  'auth_failed', // 401 after one refresh, or 403 (scope missing, organisation disconnected)
  'reauthorization_required', // the token endpoint answers invalid_grant
  'target_rejected', // 404 and other 4xx
];
const RETRYABLE = [...RATE_LIMIT_FAILURES, 'target_unavailable']; // 429; 500, 503 (OrganisationOffline)

const LIMIT = { concurrent: 5, per_minute: 60, per_day: 5000 };

const read = (name: string, request: string): OperationContract => ({
  name,
  request,
  scope: 'accounting.transactions.read',
  batch_size: 100,
  rate_limit: LIMIT,
  idempotency: { strategy: 'natural_key', lookup: 'read only', key: 'InvoiceID / PaymentID' },
  retryable: RETRYABLE,
  permanent: ['auth_failed', 'reauthorization_required'],
});

/** A credit note's or payment's export: booked against its invoice, which it may wait for. */
const linked = (name: string, request: string, perMinute: number): OperationContract => ({
  name,
  request,
  scope: 'accounting.transactions',
  batch_size: 1,
  rate_limit: { ...LIMIT, per_minute: perMinute },
  idempotency: {
    strategy: 'header',
    header: 'Idempotency-Key',
    key: "the document's (a second call's derived from it)",
    retention_hours: 24,
  },
  retryable: [...RETRYABLE, 'invoice_not_booked'],
  permanent: [...PERMANENT, 'not_configured'],
});

export const xero: AdapterDeclaration = {
  key: 'xero',
  name: 'Xero',
  status: 'available',
  category: 'accounting',
  direction: 'bidirectional',
  purpose:
    "Books sales invoices, credit notes and payments in a Xero organisation and reads its invoices and payments back for reconciliation; connected by the organisation's consent (OAuth 2).",
  capabilities: [
    'export_invoices',
    'export_credit_notes',
    'export_payments',
    'read_invoices',
    'read_payments',
    'idempotency_header',
    'oauth2_consent',
  ],
  config: z.strictObject({
    /** Xero's tenantId of the organisation: set by the consent (GET /connections), never typed. */
    organisation_id: z.optional(
      z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'must be the organisation UUID (tenantId)')),
    ),
    /** `LineItems[].AccountCode` of each invoice and credit note line. */
    sales_account_code: text(1, 10),
    /**
     * Xero's `TaxType` of each line (e.g. `OUTPUT2`): the amount is booked tax-inclusive
     * (`LineAmountTypes: Inclusive`) with this tax; without it, `NoTax` (booking-rules.ts).
     */
    tax_type: z.optional(text(1, 50)),
    /** `Account.Code` of each payment: the bank account payments are received into. Payments need it. */
    payment_account_code: z.optional(text(1, 10)),
    /** `Status` the invoices are created in (Xero's own default is DRAFT). */
    invoice_status: z.optional(z.enum(['DRAFT', 'SUBMITTED', 'AUTHORISED'])),
    base_currency: z.optional(currency),
  }),
  config_example: {
    sales_account_code: '200',
    tax_type: 'OUTPUT2',
    payment_account_code: '090',
    invoice_status: 'AUTHORISED',
  },
  probe: { endpoint: 'https://api.xero.com' },
  secret: null,
  oauth: {
    authorize_url: 'https://login.xero.com/identity/connect/authorize',
    token_url: 'https://identity.xero.com/connect/token',
    // The service is a web app with a client secret: Xero documents the standard authorization
    // code flow for it ("The standard authorization code flow"); its PKCE flow is for apps that
    // cannot keep a secret and get none (docs/connecting-accounting.md, "Consent flow").
    pkce: false,
    extra_scopes: ['offline_access'],
    organisation: {
      config_field: 'organisation_id',
      from: 'connections_endpoint',
      url: 'https://api.xero.com/connections',
    },
    access_token_minutes: 30,
  },
  auth: {
    type: 'oauth2',
    secret_fields: ['access_token', 'refresh_token'],
    notes:
      "Authorization code (Xero's standard flow for a web app with a client secret, no PKCE) through POST .../integration-connections/{id}/authorize. Access tokens last 30 minutes and are refreshed before they end; Xero rotates the refresh token on each use, and the new one is stored before it is used again. A refused refresh (invalid_grant) needs the organisation's consent again.",
  },
  scopes: {
    supported: [
      'accounting.transactions',
      'accounting.transactions.read',
      'accounting.contacts',
      'accounting.contacts.read',
      'accounting.settings.read',
    ],
    default: ['accounting.transactions', 'accounting.contacts'],
  },
  required_mapping_keys: ['number', 'counterparty', 'amount', 'currency', 'issued_on'],
  mapping_example: {
    number: 'InvoiceNumber',
    counterparty: 'Contact.Name',
    amount: 'LineItems[0].UnitAmount',
    currency: 'CurrencyCode',
    issued_on: 'Date',
    due_on: 'DueDate',
  },
  failure_modes: [...PERMANENT, ...RETRYABLE, 'invoice_not_booked', 'not_configured'],
  operations: [
    {
      name: 'export_invoices',
      request: 'PUT /api.xro/2.0/Invoices',
      scope: 'accounting.transactions',
      // One invoice per call: each carries its own Idempotency-Key, so no retry regroups keys.
      batch_size: 1,
      rate_limit: LIMIT,
      idempotency: {
        strategy: 'header',
        header: 'Idempotency-Key',
        key: 'derived from the export batch id and the document (at most 128 characters)',
        // Xero documents no retention; a day is assumed, after which an unknown outcome goes to review.
        retention_hours: 24,
      },
      retryable: RETRYABLE,
      permanent: PERMANENT,
    },
    // Up to three calls a credit note (its invoice, itself, its allocation), two a payment: their
    // share of the minute's 60.
    linked('export_credit_notes', 'PUT /api.xro/2.0/CreditNotes, PUT .../CreditNotes/{id}/Allocations', 20),
    linked('export_payments', 'PUT /api.xro/2.0/Payments', 30),
    read('read_invoices', 'GET /api.xro/2.0/Invoices?page=<n>'),
    read('read_payments', 'GET /api.xro/2.0/Payments?page=<n>'),
  ],
  payload_schema: {
    type: 'object',
    required: ['Invoices'],
    properties: {
      Invoices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['Type', 'Contact', 'LineItems'],
          properties: {
            Type: { const: 'ACCREC' },
            InvoiceNumber: { type: 'string' },
            Contact: { type: 'object', properties: { Name: { type: 'string' } } },
            Date: { type: 'string', format: 'date' },
            DueDate: { type: 'string', format: 'date' },
            CurrencyCode: { type: 'string' },
            LineAmountTypes: { type: 'string' },
            Status: { type: 'string' },
            LineItems: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  Description: { type: 'string' },
                  Quantity: { type: 'number' },
                  UnitAmount: { type: 'number' },
                  AccountCode: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
  public_notes: [
    "Connect with POST /tenants/{tenant_id}/integration-connections/{id}/authorize: the organisation is chosen on Xero's consent page and its id is kept in config.organisation_id.",
    'Each invoice is sent with its own Idempotency-Key; Xero also refuses a second invoice with the same InvoiceNumber.',
    'Credit notes are allocated to their invoice, payments paid into config.payment_account_code against it; either waits while its invoice is not in Xero.',
    'Amounts are tax-inclusive (config.tax_type).',
    "At most 60 calls a minute, 5 in flight and 5,000 a day per organisation; a 429 carries Retry-After, and a run that meets the daily limit waits for the next day's window.",
  ],
};
