import type { ConnectionHealth, HealthRecord } from './ports';

/**
 * A connection's health (docs/api.md section 9.3), computed when it is read from its health
 * record: open issues first, then freshness of the last success against the expected interval
 * (late past 1x, failing past 2x), then whether the last call failed.
 */

export const REPAIR_NEXT_ACTION =
  'preview the repair (POST /tenants/{tenant_id}/integration-repairs/preview), apply it, then run the diagnostics again';
const DIAGNOSE = 'run the diagnostics (POST .../integration-connections/{id}/diagnostics)';

const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10}h`;

export function computeHealth(
  record: HealthRecord | undefined,
  expectedMinutes: number,
  now: Date,
): ConnectionHealth {
  const base = {
    last_success_at: record?.last_success_at ?? null,
    last_failure_at: record?.last_failure_at ?? null,
    open_issues: record?.open_issue_codes.length ?? 0,
  };
  const state = (s: ConnectionHealth['state'], reason: string, next: string | null): ConnectionHealth => ({
    state: s,
    reason,
    next_action: next,
    ...base,
  });
  // The provider refused the tokens: nothing but a new consent helps, and the reason says so.
  if (record?.open_issue_codes.includes('reauthorization_required'))
    return state(
      'failing',
      'reauthorization_required',
      'authorize the connection again (POST .../integration-connections/{id}/authorize)',
    );
  // The service's own app was refused: its operators are alarmed; the tenant has nothing to do.
  if (record?.app_credentials_invalid_since)
    return state(
      'failing',
      'app_credentials_invalid',
      "nothing to do in this tenant: the provider refuses the service's app credentials, the service's operators are alerted, and the connection recovers by itself on its next successful token refresh",
    );
  if (record && record.open_issue_codes.length > 0) {
    const codes = [...record.open_issue_codes].sort();
    return state(
      'failing',
      `open issue${codes.length > 1 ? 's' : ''}: ${codes.join(', ')}`,
      REPAIR_NEXT_ACTION,
    );
  }
  const success = record?.last_success_at ? Date.parse(record.last_success_at) : undefined;
  const failure = record?.last_failure_at ? Date.parse(record.last_failure_at) : undefined;
  if (success === undefined && failure === undefined)
    return state('unknown', 'no delivery or check recorded yet', DIAGNOSE);
  if (success === undefined)
    return state('failing', `never succeeded; last failure: ${record?.last_failure_reason}`, DIAGNOSE);
  const interval = expectedMinutes * 60_000;
  const age = now.getTime() - success;
  const late = `no success for ${hours(age)} (expected every ${hours(interval)})`;
  if (age > 2 * interval) return state('failing', late, DIAGNOSE);
  if (failure !== undefined && failure > success)
    return state('degraded', `last call failed: ${record?.last_failure_reason}`, DIAGNOSE);
  if (age > interval) return state('degraded', late, DIAGNOSE);
  return state('healthy', `last success ${hours(age)} ago`, null);
}
