import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { openReviewItem } from '#shared/domain/review';
import { endpointAudit } from './endpoints';
import type { EndpointChange, StoredEndpoint } from './ports';

/** The change a disabling makes: the endpoint, `webhook_endpoint.disabled` and a review item. */
export function disabling(clock: Clock, e: StoredEndpoint, reason: 'gone' | 'failing'): EndpointChange {
  const now = clock.now().toISOString();
  const next: StoredEndpoint = {
    ...e,
    enabled: false,
    status: 'disabled',
    disabled_reason: reason,
    updated_at: now,
  };
  const detail =
    reason === 'gone'
      ? 'The endpoint answered 410 Gone; re-enable it with PATCH {"enabled": true}.'
      : 'Every attempt failed for 5 days; re-enable it with PATCH {"enabled": true}.';
  return {
    next,
    expectedUpdatedAt: e.updated_at,
    audit: endpointAudit(clock, null, e, 'disabled', { reason }),
    review: openReviewItem(
      {
        id: newId(),
        tenant_id: e.tenant_id,
        kind: 'webhook_endpoint',
        subject_id: e.id,
        notification_id: null,
        channel: null,
        reason: 'endpoint_disabled',
        detail,
      },
      now,
    ),
  };
}
