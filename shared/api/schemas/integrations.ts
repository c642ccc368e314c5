import * as z from 'zod/mini';
import { integrationConnectionEditable } from '#shared/table/entities/integration-connection';
import { patchSchema } from './patch';
import { FreeForm, describe, freeFormObject, named, pageQuery, text, textRule } from './common';

/**
 * The integration hub's requests (docs/api.md section 9.3). `config` and `secret` are checked
 * against the adapter's own declaration by the use case (shared/domain/integrations/), which
 * names the failing field as `config.<field>` or `secret.<field>`.
 */

export const ADAPTER_CATEGORY_VALUES = ['notification', 'accounting', 'bank_feed', 'crm'] as const;
export const AdapterCategory = z.enum(ADAPTER_CATEGORY_VALUES);
export const CONNECTION_STATUSES = ['active', 'disabled'] as const;
export const ConnectionStatus = z.enum(CONNECTION_STATUSES);

const Key = z.string().check(z.regex(/^[a-z][a-z0-9_]{1,63}$/, 'must match ^[a-z][a-z0-9_]{1,63}$'));

const Scopes = describe(
  z.array(text(1, 64)).check(z.minLength(1), z.maxLength(32)),
  "A subset of the adapter's supported_connection_scopes",
);

const Mapping = describe(
  z.record(text(1, 64), text(1, 256)).check(
    z.refine((m) => Object.keys(m).length <= 50, {
      message: 'must have at most 50 entries',
      params: { code: 'too_big' },
    }),
  ),
  'Service field -> provider field path',
);

const Config = describe(FreeForm, "Non-secret settings, checked against the adapter's config_schema");

const Secret = describe(
  freeFormObject(),
  "Write-only: the adapter's auth_profile.secret_fields; kept in private storage, never returned",
);

const EveryHours = z.int().check(z.minimum(1), z.maximum(168));

/**
 * Scheduled runs of a connection (docs/api.md, "Hub schedules"): every N hours of elapsed time.
 * `{}` or `null` schedules nothing.
 */
export const ConnectionSchedule = named(
  z.strictObject({
    diagnostics_every_hours: z.optional(EveryHours),
    reconciliation_every_hours: z.optional(EveryHours),
  }),
  'ConnectionSchedule',
);

export const IntegrationConnectionCreate = named(
  z.strictObject({
    adapter_key: Key,
    name: text(2, 120, 'name'),
    scopes: z.optional(Scopes),
    config: z.optional(Config),
    secret: z.optional(Secret),
    mapping: z.optional(Mapping),
    schedule: z.optional(z.nullable(ConnectionSchedule)),
  }),
  'IntegrationConnectionCreate',
);

/**
 * PATCH: any of the fields `integrationConnectionEditable` declares
 * (shared/table/entities/integration-connection.ts); `config` and `mapping` replace the stored
 * ones, `secret: null` removes it.
 */
export const IntegrationConnectionUpdate = named(
  patchSchema(integrationConnectionEditable, {
    name: text(2, 120, 'name'),
    status: ConnectionStatus,
    scopes: Scopes,
    config: Config,
    secret: z.nullable(Secret),
    mapping: Mapping,
    schedule: z.nullable(ConnectionSchedule),
  }),
  'IntegrationConnectionUpdate',
);

export const IntegrationConnectionListQuery = z.strictObject({
  status: z.optional(ConnectionStatus),
  adapter_key: z.optional(Key),
  ...pageQuery,
});

export const AdapterListQuery = z.strictObject({ category: z.optional(AdapterCategory) });

export const AdapterPath = z.object({ adapter_key: text(1, 64) });

/**
 * `POST .../authorize?return_to`: the console page the callback page links back to. It must be a
 * page of this service's console (the use case checks it against the configured console URL), so
 * the callback never sends a person to an address a third party chose.
 */
export const IntegrationAuthorizeQuery = z.strictObject({
  return_to: z.optional(
    describe(text(1, 2048), "A page of this service's console, under its configured URL"),
  ),
});

/** Connection ids are at most 36 characters: the accounting export's `integration_connection_id` bound. */
export const IntegrationConnectionPath = z.object({ tenant_id: text(1, 64), connection_id: text(1, 36) });

/** What a diagnostics check that fails opens an integration issue under (one open issue per connection and code). */
export const ISSUE_CODES = [
  'config_invalid',
  'secret_missing',
  'scope_not_supported',
  'mapping_incomplete',
  'provider_unreachable',
  'reauthorization_required',
] as const;
export const IssueCode = z.enum(ISSUE_CODES);

export const IntegrationMappingPreviewCreate = named(
  z.strictObject({
    sample: describe(FreeForm, 'A provider record as the provider sends it'),
    mapping: z.optional(Mapping),
  }),
  'IntegrationMappingPreviewCreate',
);

export const IntegrationRepairPreviewCreate = named(
  z.strictObject({ connection_id: text(1, 36), issue_code: z.optional(IssueCode) }),
  'IntegrationRepairPreviewCreate',
);

export const RECONCILIATION_RULE_SETS = ['payment_reconciliation'] as const;
export const RECONCILIATION_RUN_STATUSES = ['queued', 'completed', 'failed'] as const;
export const ReconciliationRunStatus = z.enum(RECONCILIATION_RUN_STATUSES);

export const ReconciliationRunCreate = named(
  z.strictObject({ connection_id: text(1, 36), rule_set: z.enum(RECONCILIATION_RULE_SETS) }),
  'ReconciliationRunCreate',
);

export const ReconciliationRunListQuery = z.strictObject({
  status: z.optional(ReconciliationRunStatus),
  connection_id: z.optional(text(1, 36)),
  ...pageQuery,
});

export const ReconciliationRunPath = z.object({ tenant_id: text(1, 64), run_id: text(1, 36) });

/**
 * What the provider sends the browser back with, bounded well above what any provider sends (past
 * them: 422). Each field is optional so that a missing one gets the callback's short page; the
 * provider's other parameters (`scope`, `session_state`) are ignored.
 */
export const OAuthCallbackQuery = z.object({
  code: z.optional(z.string().check(z.maxLength(2048), textRule())),
  state: z.optional(z.string().check(z.maxLength(128), textRule())),
  error: z.optional(z.string().check(z.maxLength(64), textRule())),
  realmId: z.optional(z.string().check(z.maxLength(32), textRule())),
});
