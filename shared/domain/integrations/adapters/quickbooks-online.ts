import * as z from 'zod/mini';
import type { AdapterDeclaration, OperationContract } from '../catalog';
import { RATE_LIMIT_FAILURES } from './fields';

/**
 * QuickBooks Online Accounting API (https://quickbooks.api.intuit.com/v3/company/{realmId}), as
 * Intuit's developer documentation describes it (docs/connecting-accounting.md cites each page):
 * entities `invoice` and `payment`, reads through the `query` endpoint, the `requestid` query
 * parameter that makes a create idempotent, errors as `{"Fault": {"Error": [...], "type"}}`.
 * Limits per company (realm) and app: 500 requests a minute, 10 in flight; 429 past them.
 */

const PERMANENT = [
  'validation_rejected', // 400 ValidationFault (e.g. 6140 duplicate DocNumber)
  'auth_failed', // 401 AuthenticationFault after one refresh; 403 AuthorizationFault
  'reauthorization_required', // the token endpoint answers invalid_grant
  'target_rejected',
];
const RETRYABLE = [...RATE_LIMIT_FAILURES, 'target_unavailable']; // 429; 500, 503

const LIMIT = { concurrent: 10, per_minute: 500 };
const QUERY = 'GET /v3/company/{realm_id}/query?query=';

const read = (name: string, entity: string): OperationContract => ({
  name,
  request: `${QUERY}select * from ${entity} startposition <n> maxresults 1000`,
  scope: 'com.intuit.quickbooks.accounting',
  batch_size: 1000,
  rate_limit: LIMIT,
  idempotency: { strategy: 'natural_key', lookup: 'read only', key: 'Id' },
  retryable: RETRYABLE,
  permanent: ['auth_failed', 'reauthorization_required'],
});

/**
 * A credit memo's or payment's export: booked against its invoice, which it may wait for; resent
 * with the same requestid after an unknown outcome (Intuit documents no retention: a day is
 * assumed, then review), as no number identifies a payment.
 */
const linked = (name: string, request: string, perMinute: number): OperationContract => ({
  name,
  request,
  scope: 'com.intuit.quickbooks.accounting',
  batch_size: 1,
  rate_limit: { ...LIMIT, per_minute: perMinute },
  idempotency: {
    strategy: 'header',
    header: 'requestid (query parameter)',
    key: "the document's (a second call's derived from it)",
    retention_hours: 24,
  },
  retryable: [...RETRYABLE, 'invoice_not_booked'],
  permanent: PERMANENT,
});

export const quickbooksOnline: AdapterDeclaration = {
  key: 'quickbooks_online',
  name: 'QuickBooks Online',
  status: 'available',
  category: 'accounting',
  direction: 'bidirectional',
  purpose:
    "Books invoices, credit memos and payments in a QuickBooks Online company and reads its invoices and payments back for reconciliation; connected by the company's consent (OAuth 2).",
  capabilities: [
    'export_invoices',
    'export_credit_notes',
    'export_payments',
    'read_invoices',
    'read_payments',
    'lookup_by_number',
    'oauth2_consent',
  ],
  config: z.strictObject({
    /** The company's realmId: set by the consent (the callback's `realmId`), never typed. */
    realm_id: z.optional(z.string().check(z.regex(/^[0-9]{1,20}$/, 'must be the numeric realmId'))),
    /** `CustomerRef.value` of the invoices (the customer they are booked to). */
    customer_id: z.string().check(z.regex(/^[0-9]{1,20}$/, 'must be a QuickBooks customer Id')),
    /** `SalesItemLineDetail.ItemRef.value` of the line (the item whose income account books it). */
    item_id: z.string().check(z.regex(/^[0-9]{1,20}$/, 'must be a QuickBooks item Id')),
    /** `DepositToAccountRef.value` of payments; without it QuickBooks uses Undeposited Funds. */
    deposit_account_id: z.optional(
      z.string().check(z.regex(/^[0-9]{1,20}$/, 'must be a QuickBooks account Id')),
    ),
  }),
  config_example: { customer_id: '58', item_id: '1' },
  probe: { endpoint: 'https://quickbooks.api.intuit.com' },
  secret: null,
  oauth: {
    authorize_url: 'https://appcenter.intuit.com/connect/oauth2',
    token_url: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    // Intuit documents the authorization code grant with the client secret, without PKCE.
    pkce: false,
    extra_scopes: [],
    organisation: { config_field: 'realm_id', from: 'callback_parameter', parameter: 'realmId' },
    access_token_minutes: 60,
  },
  auth: {
    type: 'oauth2',
    secret_fields: ['access_token', 'refresh_token'],
    notes:
      "Authorization code through POST .../integration-connections/{id}/authorize (Intuit offers no PKCE). Access tokens last an hour and are refreshed before they end; the refresh token the answer carries replaces the stored one before it is used again. A refused refresh (invalid_grant) needs the company's consent again.",
  },
  scopes: {
    supported: ['com.intuit.quickbooks.accounting'],
    default: ['com.intuit.quickbooks.accounting'],
  },
  required_mapping_keys: ['number', 'amount', 'currency', 'issued_on'],
  mapping_example: {
    number: 'DocNumber',
    amount: 'Line[0].Amount',
    currency: 'CurrencyRef.value',
    issued_on: 'TxnDate',
    due_on: 'DueDate',
  },
  failure_modes: [...PERMANENT, ...RETRYABLE, 'invoice_not_booked'],
  operations: [
    {
      name: 'export_invoices',
      request: 'POST /v3/company/{realm_id}/invoice?requestid=<key>',
      scope: 'com.intuit.quickbooks.accounting',
      batch_size: 1,
      rate_limit: LIMIT,
      idempotency: {
        strategy: 'natural_key',
        lookup: `${QUERY}select * from Invoice where DocNumber = '<number>'`,
        key: 'DocNumber; every create also carries requestid derived from the export batch and the document',
      },
      retryable: RETRYABLE,
      permanent: PERMANENT,
    },
    // Up to three calls a credit note (its invoice, the memo, its application), two a payment.
    linked(
      'export_credit_notes',
      'POST /v3/company/{realm_id}/creditmemo?requestid=<key>, then .../payment (applied)',
      166,
    ),
    linked(
      'export_payments',
      'POST /v3/company/{realm_id}/payment?requestid=<key> (LinkedTxn: the invoice)',
      250,
    ),
    read('read_invoices', 'Invoice'),
    read('read_payments', 'Payment'),
  ],
  payload_schema: {
    type: 'object',
    required: ['CustomerRef', 'Line'],
    properties: {
      DocNumber: { type: 'string', maxLength: 21 },
      TxnDate: { type: 'string', format: 'date' },
      DueDate: { type: 'string', format: 'date' },
      CurrencyRef: { type: 'object', properties: { value: { type: 'string' } } },
      CustomerRef: { type: 'object', properties: { value: { type: 'string' } } },
      Line: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            Amount: { type: 'number' },
            DetailType: { const: 'SalesItemLineDetail' },
            SalesItemLineDetail: {
              type: 'object',
              properties: { ItemRef: { type: 'object', properties: { value: { type: 'string' } } } },
            },
          },
        },
      },
    },
  },
  public_notes: [
    "Connect with POST /tenants/{tenant_id}/integration-connections/{id}/authorize: the company is chosen on Intuit's consent page and its realmId is kept in config.realm_id.",
    'A number over 21 characters is refused, never cut.',
    'Credit memos are applied to their invoice, payments linked to it; either waits while its invoice is not in QuickBooks.',
    'Each create carries a requestid; after a call whose outcome is unknown the export first looks the invoice up by DocNumber through the query endpoint, and resends only when it is not there.',
    'At most 500 requests a minute and 10 in flight per company; a 429 is retried after Retry-After (or a minute).',
  ],
};
