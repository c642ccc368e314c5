import type { AdapterContractRead, IntegrationConnectionRead } from '../../../../clients/typescript/index.js';
import { Badge } from '../../ui/table.js';
import { expectedEveryMs, freshness } from './freshness.js';

export function FreshnessText({
  c,
  category,
}: {
  c: IntegrationConnectionRead;
  category: AdapterContractRead['category'] | undefined;
}) {
  const f = freshness(c.health.last_success_at, expectedEveryMs(c.schedule, category));
  return (
    <span class={`fresh-${f.kind}`} data-testid="freshness">
      {f.text}
    </span>
  );
}

/** The health state and, when there is one, its reason code in words. */
export function HealthState({ c }: { c: IntegrationConnectionRead }) {
  return (
    <>
      <Badge value={c.health.state} />
      {/* A healthy connection's reason only repeats its last success, which the freshness says. */}
      {c.health.reason && c.health.state !== 'healthy' ? (
        <span class="muted"> {c.health.reason.replaceAll('_', ' ')}</span>
      ) : null}
    </>
  );
}

/** The catalog's OAuth 2 adapters (Xero, QuickBooks Online) connect by consent, not by a pasted secret. */
export const byConsent = (a: AdapterContractRead | undefined) => a?.auth_profile?.type === 'oauth2';

export const secretFields = (a: AdapterContractRead | undefined): string[] => {
  const fields = a?.auth_profile?.secret_fields;
  return !byConsent(a) && Array.isArray(fields) ? fields.map(String) : [];
};

/** Reconciliation reads the provider's payments: the API's rule for runs and their schedule. */
export const reconcilable = (a: AdapterContractRead | undefined) =>
  !!a?.capabilities?.some((c) => c === 'read_payments' || c === 'reconciliation_source');
