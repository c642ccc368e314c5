import type { Clock } from '#shared/kernel/ids';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { openIssue, resolveIssue } from '#shared/domain/integrations/diagnostics';
import { type Connection, connectionFailure, type HubStore } from '#shared/domain/integrations/ports';

/**
 * What a refused refresh (`invalid_grant`) makes of a connection: its health `failing` with
 * reason `reauthorization_required`, an integration issue of that code with its review item (one
 * open issue per connection and code), and, since its token pair was dropped, no more calls until
 * the provider's consent is given again; which resolves the issue.
 */

export interface ReauthorizationDeps {
  hub: HubStore;
  clock: Clock;
}

export const REAUTHORIZATION = {
  code: 'reauthorization_required',
  message: 'the provider refused to refresh the access (invalid_grant): its consent was revoked or expired',
  next_action: "POST the connection's authorize and give consent at the provider again",
} as const;

export const markReauthorizationRequired =
  (deps: ReauthorizationDeps) =>
  async (c: Connection): Promise<void> => {
    const adapter = adapterByKey(c.adapter_key);
    if (!adapter) return;
    await deps.hub.recordResult(
      c.tenant_id,
      c.id,
      connectionFailure(deps.clock.now().toISOString(), REAUTHORIZATION.code),
    );
    await openIssue(deps, null, c, adapter, {
      id: 'provider_reachable',
      status: 'fail',
      issue_code: REAUTHORIZATION.code,
      message: REAUTHORIZATION.message,
      next_action: REAUTHORIZATION.next_action,
    });
  };

export const reauthorized =
  (deps: ReauthorizationDeps) =>
  async (c: Connection): Promise<void> => {
    await resolveIssue(deps, null, c, REAUTHORIZATION.code);
    await deps.hub.recordResult(c.tenant_id, c.id, { ok: true, at: deps.clock.now().toISOString() });
  };
