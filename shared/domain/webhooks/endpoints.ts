import { randomBytes } from 'node:crypto';
import type * as z from 'zod/mini';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import { sameValue } from '#shared/kernel/same-value';
import { webhookEndpointEditable } from '#shared/table/entities/webhook-endpoint';
import {
  WEBHOOK_LIMITS,
  type WebhookEndpointCreate,
  type WebhookEndpointUpdate,
} from '#shared/api/schemas/webhooks';
import { auditEvent } from '#shared/domain/audit';
import { webhookUrlProblem } from '#shared/domain/integrations/webhook-target';
import type { StoredEndpoint, WebhookEndpoint, WebhookEndpointStore, WebhookSecrets } from './ports';

/** Webhook endpoints (docs/api.md, "Event subscriptions"): create, read, change, delete, rotate. */

export interface EndpointDeps {
  endpoints: WebhookEndpointStore;
  secrets: Pick<WebhookSecrets, 'put' | 'delete'>;
  clock: Clock;
  allowLoopback: boolean;
}

/** For 24 hours after a rotation the secret before also signs. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** `whsec_` and the base64 of 32 random bytes (the Standard Webhooks secret format). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The record the API reads: the hidden fields left off. */
export const publicEndpoint = ({
  secret_version: _v,
  previous_secret_until: _p,
  failing_since: _f,
  ...read
}: StoredEndpoint): WebhookEndpoint => read;

type Verb = 'created' | 'updated' | 'deleted' | 'secret_rotated' | 'disabled';

export const endpointAudit = (
  clock: Clock,
  actorId: string | null,
  e: Pick<WebhookEndpoint, 'tenant_id' | 'id' | 'url'>,
  verb: Verb,
  metadata: Record<string, unknown>,
) =>
  auditEvent(clock, {
    tenant_id: e.tenant_id,
    event_type: `webhook_endpoint.${verb}`,
    actor_id: actorId,
    entity_type: 'webhook_endpoint',
    entity_id: e.id,
    // The origin only: a URL's path or query may carry a token of the receiver's.
    summary: URL.canParse(e.url) ? new URL(e.url).origin : 'webhook endpoint',
    metadata,
  });

/** The hub's one target check (https; no private, loopback, link-local or metadata address): 422 on `url`. */
function checkUrl(deps: Pick<EndpointDeps, 'allowLoopback'>, url: string) {
  const problem = webhookUrlProblem(url, deps.allowLoopback);
  if (problem) throw new ValidationError([{ path: 'url', ...problem }], 'The endpoint URL is not allowed.');
}

/**
 * Create an endpoint.
 * 1. The URL passes the target check (422, nothing stored).
 * 2. A secret is generated and written to the secret store (version 1).
 * 3. The endpoint, its audit event and the tenant's endpoint count are written in one
 *    transaction; a 21st endpoint is 409 and its secret is deleted again.
 * 4. The answer carries the secret, the only time the API shows it.
 */
export async function createEndpoint(
  deps: EndpointDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof WebhookEndpointCreate>,
) {
  checkUrl(deps, input.url);
  const now = deps.clock.now().toISOString();
  const endpoint: StoredEndpoint = {
    id: newId(),
    tenant_id: tenantId,
    url: input.url,
    description: input.description,
    event_types: [...new Set(input.event_types)],
    enabled: input.enabled,
    status: input.enabled ? 'active' : 'disabled',
    disabled_reason: input.enabled ? null : 'manual',
    secret_rotated_at: null,
    created_at: now,
    updated_at: now,
    secret_version: 1,
    previous_secret_until: null,
    failing_since: null,
  };
  const secret = newWebhookSecret();
  await deps.secrets.put(tenantId, endpoint.id, 1, secret);
  const audit = endpointAudit(deps.clock, actor.user_id, endpoint, 'created', {
    event_types: endpoint.event_types,
    enabled: endpoint.enabled,
  });
  if ((await deps.endpoints.create(endpoint, audit, WEBHOOK_LIMITS.endpointsPerTenant)) === 'limit') {
    await deps.secrets.delete(tenantId, endpoint.id, 1);
    throw new ConflictError(`A tenant has at most ${WEBHOOK_LIMITS.endpointsPerTenant} webhook endpoints.`);
  }
  return { ...publicEndpoint(endpoint), secret };
}

export async function getStoredEndpoint(
  deps: Pick<EndpointDeps, 'endpoints'>,
  tenantId: string,
  id: string,
): Promise<StoredEndpoint> {
  const found = await deps.endpoints.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const getEndpoint = async (deps: Pick<EndpointDeps, 'endpoints'>, tenantId: string, id: string) =>
  publicEndpoint(await getStoredEndpoint(deps, tenantId, id));

export async function listEndpoints(
  deps: Pick<EndpointDeps, 'endpoints'>,
  tenantId: string,
  page: PageRequest,
) {
  const found = await deps.endpoints.list(tenantId, page);
  return { ...found, items: found.items.map(publicEndpoint) };
}

const changedMeanwhile = () => new ConflictError('The endpoint changed meanwhile; read it again.');

/**
 * Change an endpoint. A new URL passes the target check; `enabled: false` disables it
 * (`manual`), `enabled: true` re-enables a disabled one (whatever disabled it) and ends its run
 * of failures. A change of nothing answers the endpoint as it is, with no write.
 */
export async function updateEndpoint(
  deps: EndpointDeps,
  actor: Principal,
  tenantId: string,
  id: string,
  change: z.output<typeof WebhookEndpointUpdate>,
) {
  const current = await getStoredEndpoint(deps, tenantId, id);
  const fields = {
    ...change,
    ...(change.event_types && { event_types: [...new Set(change.event_types)] }),
  };
  const changed = webhookEndpointEditable.fields.filter(
    (key) => fields[key] !== undefined && !sameValue(fields[key], current[key]),
  );
  // A disabled endpoint is re-enabled by `enabled: true` even when a 410 left `enabled` as it was.
  const reenable = change.enabled === true && current.status === 'disabled';
  if (changed.length === 0 && !reenable) return publicEndpoint(current);
  if (fields.url !== undefined && changed.includes('url')) checkUrl(deps, fields.url);
  const enabled = fields.enabled ?? current.enabled;
  const next: StoredEndpoint = {
    ...current,
    ...Object.fromEntries(changed.map((key) => [key, fields[key]])),
    enabled,
    status: enabled ? 'active' : 'disabled',
    disabled_reason: enabled ? null : current.status === 'disabled' ? current.disabled_reason : 'manual',
    failing_since: reenable ? null : current.failing_since,
    updated_at: deps.clock.now().toISOString(),
  };
  const audit = endpointAudit(deps.clock, actor.user_id, next, 'updated', {
    changed: reenable && !changed.includes('enabled') ? [...changed, 'enabled'] : changed,
    enabled,
  });
  if (!(await deps.endpoints.update(next, current.updated_at, audit))) throw changedMeanwhile();
  return publicEndpoint(next);
}

/** Delete an endpoint with its audit event (404 when there is none); its messages expire by TTL. */
export async function deleteEndpoint(deps: EndpointDeps, actor: Principal, tenantId: string, id: string) {
  const current = await getStoredEndpoint(deps, tenantId, id);
  const removed = await deps.endpoints.remove(
    tenantId,
    id,
    endpointAudit(deps.clock, actor.user_id, current, 'deleted', { event_types: current.event_types }),
  );
  if (!removed) throw new NotFoundError();
  for (let v = Math.max(1, current.secret_version - 1); v <= current.secret_version; v++)
    await deps.secrets.delete(tenantId, id, v);
}

/**
 * Rotate the secret.
 * 1. A new secret is written to the secret store as the next version.
 * 2. The endpoint names it as the one that signs, and the one before as signing too for 24 h,
 *    on the condition that it did not change meanwhile (409), with `webhook_endpoint.secret_rotated`.
 * 3. The answer carries the new secret, the only time the API shows it.
 */
export async function rotateSecret(deps: EndpointDeps, actor: Principal, tenantId: string, id: string) {
  const current = await getStoredEndpoint(deps, tenantId, id);
  const now = deps.clock.now();
  const version = current.secret_version + 1;
  const secret = newWebhookSecret();
  await deps.secrets.put(tenantId, id, version, secret);
  const next: StoredEndpoint = {
    ...current,
    secret_version: version,
    previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    secret_rotated_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const audit = endpointAudit(deps.clock, actor.user_id, next, 'secret_rotated', {
    previous_signs_until: next.previous_secret_until,
  });
  if (!(await deps.endpoints.update(next, current.updated_at, audit))) throw changedMeanwhile();
  // The version before the previous one signs no more.
  if (version > 2) await deps.secrets.delete(tenantId, id, version - 2);
  return { secret };
}
