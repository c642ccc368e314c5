import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { credential, emailAddress, RATE_LIMIT_FAILURES, text } from './fields';

export const crm: AdapterDeclaration = {
  key: 'crm',
  name: 'CRM contacts',
  status: 'beta',
  category: 'crm',
  direction: 'bidirectional',
  purpose:
    'Keeps counterparties in step with CRM contacts and companies, so documents and exceptions name the same party.',
  capabilities: ['read_contacts', 'upsert_contacts', 'read_deals'],
  config: z.strictObject({
    workspace: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be the workspace slug')),
    default_owner_email: z.optional(emailAddress),
    pipeline: z.optional(text(1, 64)),
  }),
  config_example: { workspace: 'acme', default_owner_email: 'sales@acme.example' },
  probe: { endpoint: 'https://api.hubapi.com' },
  secret: z.strictObject({ api_key: credential }),
  auth: {
    type: 'api_key',
    secret_fields: ['api_key'],
    notes: 'A private app key of the workspace, sent as a bearer token.',
  },
  scopes: {
    supported: ['contacts.read', 'contacts.write', 'companies.read', 'deals.read'],
    default: ['contacts.read', 'companies.read'],
  },
  required_mapping_keys: ['external_id', 'name'],
  mapping_example: {
    external_id: 'id',
    name: 'properties.company',
    email: 'properties.email',
    vat_id: 'properties.vat_number',
  },
  failure_modes: [
    'invalid_credentials',
    'scope_missing',
    'validation_rejected',
    'conflict',
    ...RATE_LIMIT_FAILURES,
  ],
  operations: [
    {
      name: 'read_contacts',
      request: 'GET /crm/v3/objects/contacts?after=',
      scope: 'contacts.read',
      batch_size: 100,
      rate_limit: { concurrent: 10, per_minute: 600 },
      idempotency: { strategy: 'natural_key', lookup: 'read only', key: 'contact id' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['invalid_credentials', 'scope_missing'],
    },
    {
      name: 'upsert_contacts',
      request: 'POST /crm/v3/objects/contacts/batch/upsert',
      scope: 'contacts.write',
      batch_size: 100,
      rate_limit: { concurrent: 10, per_minute: 600 },
      idempotency: { strategy: 'natural_key', lookup: 'upsert by external_id', key: 'external_id' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['invalid_credentials', 'scope_missing', 'validation_rejected', 'conflict'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['id', 'properties'],
    properties: { id: { type: 'string' }, properties: { type: 'object' } },
  },
  public_notes: ['Beta: upserts are keyed on external_id, so repeating a batch changes nothing twice.'],
};
