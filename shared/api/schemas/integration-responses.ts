import * as z from 'zod/mini';
import { FreeForm, describe, listOf, named } from './common';
import { DateTime } from './datetime';
import {
  AdapterCategory,
  ConnectionSchedule,
  ConnectionStatus,
  IssueCode,
  ReconciliationRunStatus,
} from './integrations';
import { integrationConnectionRecord } from '#shared/table/entities/integration-connection';
import { reconciliationRunRecord } from '#shared/table/entities/reconciliation-run';
import { readSchema } from './records';

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
  readSchema(integrationConnectionRecord, {
    status: ConnectionStatus,
    config: FreeForm,
    mapping: z.record(z.string(), z.string()),
    schedule: ConnectionSchedule,
    health: ConnectionHealthRead,
  }),
  'IntegrationConnectionRead',
);

export const IntegrationConnectionList = named(
  listOf(IntegrationConnectionRead),
  'IntegrationConnectionList',
);

export const DiagnosticCheckRead = named(
  z.object({
    /** config_complete, secret_present, scopes_allowed, mapping_keys_present, provider_reachable */
    id: z.string(),
    status: z.enum(['pass', 'warn', 'fail']),
    /** The integration issue a failing check opens; null when it passes. */
    issue_code: z.nullable(IssueCode),
    message: z.string(),
    next_action: z.nullable(z.string()),
  }),
  'DiagnosticCheckRead',
);

export const IntegrationDiagnosticsRead = named(
  z.object({
    connection_id: z.string(),
    ran_at: DateTime,
    checks: z.array(DiagnosticCheckRead),
    health: ConnectionHealthRead,
  }),
  'IntegrationDiagnosticsRead',
);

export const IntegrationMappingPreviewRead = named(
  z.object({
    /** Service field -> the value found at its provider path in the sample. */
    mapped: FreeForm,
    missing_required_keys: z.array(z.string()),
    /** Provider field paths of the sample no mapping entry reads. */
    unmapped_fields: z.array(z.string()),
    warnings: z.array(z.string()),
  }),
  'IntegrationMappingPreviewRead',
);

export const IntegrationRepairPreviewRead = named(
  z.object({
    status: z.literal('previewed'),
    tenant_id: z.string(),
    connection_id: z.string(),
    generated_at: DateTime,
    summary: z.string(),
    problems: z.array(
      z.object({ issue_code: IssueCode, check: z.string(), message: z.string(), open_issue: z.boolean() }),
    ),
    proposed_changes: z.array(z.object({ path: z.string(), before: z.unknown(), after: z.unknown() })),
    steps: z.array(z.string()),
    risk_level: z.enum(['none', 'low', 'medium', 'high']),
    evidence: FreeForm,
    /** The calls that make the change and check it, in order. */
    api: z.array(z.object({ method: z.string(), path: z.string(), body: z.optional(FreeForm) })),
  }),
  'IntegrationRepairPreviewRead',
);

/** A count of records: a whole number, at least 0. */
const Count = z.number().check(z.int(), z.minimum(0));

export const ReconciliationRunRead = named(
  readSchema(reconciliationRunRecord, {
    status: ReconciliationRunStatus,
    matched: Count,
    mismatched: Count,
    missing_in_provider: Count,
    missing_locally: Count,
  }),
  'ReconciliationRunRead',
);

export const ReconciliationRunList = named(listOf(ReconciliationRunRead), 'ReconciliationRunList');

/** `POST .../integration-connections/{id}/authorize`: where to send the person for the provider's consent. */
export const IntegrationAuthorizationRead = named(
  z.object({
    authorize_url: describe(
      z.string(),
      "The provider's consent page, with this request's state (single-use)",
    ),
    expires_at: DateTime,
  }),
  'IntegrationAuthorizationRead',
);
