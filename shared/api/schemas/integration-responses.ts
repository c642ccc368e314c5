import * as z from 'zod/mini';
import { FreeForm, listOf, named } from './common';
import { DateTime } from './datetime';
import { AdapterCategory, ConnectionStatus } from './integrations';

/**
 * The integration hub's response records, apart from the requests for the same reason as
 * responses.ts: only the OpenAPI document and the domain's types use them.
 */

export const AdapterContractRead = named(
  z.object({
    key: z.string(),
    name: z.string(),
    status: z.string(),
    category: AdapterCategory,
    direction: z.string(),
    purpose: z.string(),
    connection_profile_supported: z.boolean(),
    connection_profile_required: z.boolean(),
    /** Notification adapters: the channel an active connection opens. */
    channel: z.nullable(z.string()),
    auth_profile: z.optional(FreeForm),
    config_example: z.optional(FreeForm),
    /** JSON Schema of `config`, generated from the schema connections are validated with. */
    config_schema: z.optional(FreeForm),
    mapping_example: z.optional(FreeForm),
    payload_schema: z.optional(FreeForm),
    capabilities: z.optional(z.array(z.string())),
    default_connection_scopes: z.optional(z.array(z.string())),
    failure_modes: z.optional(z.array(z.string())),
    public_notes: z.optional(z.array(z.string())),
    required_mapping_keys: z.optional(z.array(z.string())),
    supported_connection_scopes: z.optional(z.array(z.string())),
    operation_contracts: z.optional(z.array(FreeForm)),
  }),
  'AdapterContractRead',
);

export const AdapterList = named(listOf(AdapterContractRead), 'AdapterList');

export const HEALTH_STATES = ['healthy', 'degraded', 'failing', 'unknown'] as const;

export const ConnectionHealthRead = named(
  z.object({
    state: z.enum(HEALTH_STATES),
    reason: z.nullable(z.string()),
    next_action: z.nullable(z.string()),
    last_success_at: z.nullable(DateTime),
    last_failure_at: z.nullable(DateTime),
    open_issues: z.number().check(z.int(), z.minimum(0)),
  }),
  'ConnectionHealthRead',
);

export const IntegrationConnectionRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    adapter_key: z.string(),
    name: z.string(),
    status: ConnectionStatus,
    scopes: z.array(z.string()),
    config: FreeForm,
    mapping: z.record(z.string(), z.string()),
    /** Whether a secret is stored; the secret itself is never returned. */
    secret_configured: z.boolean(),
    health: ConnectionHealthRead,
    created_at: DateTime,
    updated_at: DateTime,
  }),
  'IntegrationConnectionRead',
);

export const IntegrationConnectionList = named(
  listOf(IntegrationConnectionRead),
  'IntegrationConnectionList',
);
