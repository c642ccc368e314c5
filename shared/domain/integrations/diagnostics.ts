import type * as z from 'zod/mini';
import type { DiagnosticCheckRead, IntegrationDiagnosticsRead } from '#shared/api/schemas/responses';
import { type FieldError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { openReviewItem } from '#shared/domain/review';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { adapterByKey } from './adapters/index';
import { checkConfig } from './connection-checks';
import type { AdapterDeclaration } from './catalog';
import { grants, unsupportedScopes } from './scopes';
import { computeHealth } from './health';
import { expectedMinutes } from './schedule';
import type {
  Connection,
  ConnectionHealth,
  ConnectionStore,
  HubStore,
  IntegrationIssue,
  IssueCode,
  ProviderReader,
} from './ports';

/**
 * Diagnostics and integration issues (docs/api.md section 9.3): five checks of a connection, the
 * last of them a real request to its provider. A failing check opens the connection's issue of
 * that code (one open issue per connection and code: the store's conditional write) with a review
 * item; a passing check resolves the open issue of its code and its review item.
 */

export type Check = z.output<typeof DiagnosticCheckRead>;
export type Diagnostics = z.output<typeof IntegrationDiagnosticsRead>;

export interface HubDeps {
  connections: ConnectionStore;
  hub: HubStore;
  provider: ProviderReader;
  clock: Clock;
}

/** The issue each check opens when it fails. */
export const CHECK_ISSUES = {
  config_complete: 'config_invalid',
  secret_present: 'secret_missing',
  scopes_allowed: 'scope_not_supported',
  mapping_keys_present: 'mapping_incomplete',
  provider_reachable: 'provider_unreachable',
} as const satisfies Record<string, IssueCode>;
type CheckId = keyof typeof CHECK_ISSUES;

const pass = (id: CheckId, message: string): Check => ({
  id,
  status: 'pass',
  issue_code: null,
  message,
  next_action: null,
});
const warn = (id: CheckId, message: string, next: string): Check => ({
  id,
  status: 'warn',
  issue_code: null,
  message,
  next_action: next,
});
const fail = (id: CheckId, message: string, next: string): Check => ({
  id,
  status: 'fail',
  issue_code: CHECK_ISSUES[id],
  message,
  next_action: next,
});

/** The config's errors against the adapter's schema (field names and rules only, never values). */
export function configErrors(adapter: AdapterDeclaration, config: unknown): FieldError[] {
  try {
    checkConfig(adapter, config);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return (err.errors ?? []) as FieldError[];
  }
}

export const missingMappingKeys = (adapter: AdapterDeclaration, mapping: Record<string, string>) =>
  adapter.required_mapping_keys.filter((key) => !mapping[key]);

/** The four checks that need no provider: config, secret, scopes, mapping. */
export function localChecks(adapter: AdapterDeclaration, c: Connection): Check[] {
  const config = configErrors(adapter, c.config);
  const unsupported = unsupportedScopes(adapter, c.scopes);
  const unscoped = adapter.operations.filter((o) => !grants(c.scopes, o.scope)).map((o) => o.name);
  const missing = missingMappingKeys(adapter, c.mapping);
  return [
    config.length === 0
      ? pass('config_complete', 'config matches the adapter config_schema')
      : fail(
          'config_complete',
          `config does not match the adapter config_schema: ${config.map((e) => `${e.path} ${e.message}`).join('; ')}`,
          `PATCH the connection's config (GET /adapters/${adapter.key} shows config_schema and config_example)`,
        ),
    !adapter.secret && !adapter.oauth
      ? pass('secret_present', 'no secret needed: the adapter sends under the service role')
      : c.secret_configured
        ? pass('secret_present', 'a secret is set')
        : adapter.oauth
          ? fail('secret_present', 'not authorized yet', "POST the connection's authorize, then consent")
          : fail(
              'secret_present',
              `no secret is set (${adapter.auth.type}: ${adapter.auth.secret_fields.join(', ')})`,
              `PATCH the connection with secret {${adapter.auth.secret_fields.join(', ')}}`,
            ),
    unsupported.length > 0
      ? fail(
          'scopes_allowed',
          `scopes the adapter does not support: ${unsupported.join(', ')}`,
          `PATCH scopes to a subset of ${adapter.scopes.supported.join(', ')}`,
        )
      : unscoped.length > 0
        ? warn(
            'scopes_allowed',
            `operations without their scope: ${unscoped.join(', ')}`,
            'add their scopes if the connection should do them',
          )
        : pass('scopes_allowed', 'every scope is supported and every operation has its scope'),
    missing.length > 0
      ? fail(
          'mapping_keys_present',
          `required mapping keys missing: ${missing.join(', ')}`,
          `PATCH mapping with ${missing.join(', ')} (mapping_example shows the provider paths; POST .../mapping-preview tries them)`,
        )
      : pass('mapping_keys_present', 'every required mapping key is mapped'),
  ];
}

async function probeCheck(deps: HubDeps, c: Connection): Promise<Check> {
  const probed = await deps.provider.probe(c);
  if (!probed)
    return warn(
      'provider_reachable',
      "the provider's endpoint cannot be named (no url in the config, or no region): not probed",
      "set the connection's config (GET /adapters/{key} shows config_schema), then run the diagnostics again",
    );
  return probed.ok
    ? pass('provider_reachable', 'the provider answered')
    : fail(
        'provider_reachable',
        `the provider did not answer: ${probed.reason}`,
        "check the provider's status and the connection's config, then run the diagnostics again",
      );
}

export const issueSubject = (connectionId: string, code: string) => `${connectionId}:${code}`;

/** The connection's health as the API shows it now. */
export async function healthNow(
  deps: Pick<HubDeps, 'hub' | 'clock'>,
  c: Connection,
): Promise<ConnectionHealth> {
  return computeHealth(await deps.hub.health(c.tenant_id, c.id), expectedMinutes(c), deps.clock.now());
}

type IssueDeps = Pick<HubDeps, 'hub' | 'clock'>;
export async function openIssue(
  deps: IssueDeps,
  actorId: string | null,
  c: Connection,
  adapter: AdapterDeclaration,
  check: Check & { issue_code: IssueCode },
): Promise<void> {
  const now = deps.clock.now().toISOString();
  const subject = issueSubject(c.id, check.issue_code);
  const reviewId = newId();
  const issue: IntegrationIssue = {
    tenant_id: c.tenant_id,
    connection_id: c.id,
    issue_code: check.issue_code,
    status: 'open',
    message: check.message,
    next_action: check.next_action,
    review_item_id: reviewId,
    times_opened: 1,
    opened_at: now,
    closed_at: null,
    updated_at: now,
  };
  // What workflow rules on `integration.issue_opened` match: the issue, its id and its adapter.
  const snapshot = { id: subject, adapter_key: c.adapter_key, ...issue };
  await deps.hub.openIssue({
    issue,
    review: openReviewItem(
      {
        id: reviewId,
        tenant_id: c.tenant_id,
        kind: 'integration_issue',
        subject_id: subject,
        notification_id: null,
        channel: adapter.channel ?? null,
        reason: 'check_failed',
        detail: `${check.message}; next: ${check.next_action}`,
      },
      now,
    ),
    audit: auditEvent(deps.clock, {
      tenant_id: c.tenant_id,
      event_type: 'integration.issue_opened',
      actor_id: actorId,
      entity_type: 'integration_issue',
      entity_id: subject,
      summary: `${c.adapter_key} connection ${c.name}: ${check.issue_code}`,
      metadata: {
        connection_id: c.id,
        adapter_key: c.adapter_key,
        issue_code: check.issue_code,
        review_item_id: reviewId,
      },
    }),
    outbox: workflowEventRecorded(deps.clock, 'integration.issue_opened', snapshot),
  });
}

export async function resolveIssue(deps: IssueDeps, actorId: string | null, c: Connection, code: IssueCode) {
  const issue = await deps.hub.getIssue(c.tenant_id, c.id, code);
  if (issue?.status !== 'open') return;
  const review = await deps.hub.getReviewItem(c.tenant_id, issue.review_item_id);
  if (review?.status !== 'open') return;
  const now = deps.clock.now().toISOString();
  const subject = issueSubject(c.id, code);
  // A lost race (a decision or another run ended it first) leaves nothing to do.
  await deps.hub.endIssue(
    { ...issue, status: 'resolved', closed_at: now, updated_at: now },
    { ...review, status: 'resolved', updated_at: now },
    auditEvent(deps.clock, {
      tenant_id: c.tenant_id,
      event_type: 'integration.issue_resolved',
      actor_id: actorId,
      entity_type: 'integration_issue',
      entity_id: subject,
      summary: `${c.adapter_key} connection ${c.name}: ${code} passed`,
      metadata: { connection_id: c.id, issue_code: code, review_item_id: review.id },
    }),
    null,
  );
}

/**
 * Run a connection's diagnostics.
 * 1. The four local checks, then the provider probe (a real HTTP request).
 * 2. The outcome goes on the health record: a failure when a check fails, a success when the
 *    provider answered and nothing failed.
 * 3. Each failing check opens its issue (a no-op when it is open already); each passing check
 *    resolves the open issue of its code with its review item.
 * 4. Answers the checks and the health as it is now.
 */
export async function runDiagnostics(
  deps: HubDeps,
  actor: Principal | null,
  tenantId: string,
  connectionId: string,
): Promise<Diagnostics> {
  const c = await deps.connections.get(tenantId, connectionId);
  if (!c) throw new NotFoundError();
  const adapter = adapterByKey(c.adapter_key);
  if (!adapter) throw new NotFoundError();
  const checks = [...localChecks(adapter, c), await probeCheck(deps, c)];
  const ranAt = deps.clock.now().toISOString();
  const failed = checks.filter((k): k is Check & { issue_code: IssueCode } => k.status === 'fail');
  const probed = checks.at(-1)!.status === 'pass';
  if (failed.length > 0)
    await deps.hub.recordResult(tenantId, c.id, {
      ok: false,
      at: ranAt,
      reason: `diagnostics: ${failed.map((k) => k.issue_code).join(', ')}`,
    });
  else if (probed) await deps.hub.recordResult(tenantId, c.id, { ok: true, at: ranAt });
  const actorId = actor?.user_id ?? null;
  for (const check of failed) await openIssue(deps, actorId, c, adapter, check);
  const openCodes = new Set((await deps.hub.health(tenantId, c.id))?.open_issue_codes ?? []);
  for (const check of checks) {
    const code = CHECK_ISSUES[check.id as CheckId];
    if (check.status === 'pass' && openCodes.has(code)) await resolveIssue(deps, actorId, c, code);
  }
  return { connection_id: c.id, ran_at: ranAt, checks, health: await healthNow(deps, c) };
}

/** A 422 naming a body field that references no connection of the tenant. */
export const unknownConnection = () =>
  new ValidationError([
    {
      path: 'connection_id',
      code: 'unknown_connection',
      message: 'no connection of this tenant has this id; GET .../integration-connections lists them',
    },
  ]);
