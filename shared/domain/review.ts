import type * as z from 'zod/mini';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import type { Clock } from '#shared/kernel/ids';
import { auditEvent } from './audit';
import type { ReviewItem } from './notifications/ports';

/**
 * The review item, the record every kind of failed or gated job opens for an operator (like the
 * audit event, written by more than one concern): how one opens, and how a decision leaves it.
 */

type OpeningFields = Pick<
  ReviewItem,
  'id' | 'tenant_id' | 'kind' | 'subject_id' | 'notification_id' | 'channel' | 'reason' | 'detail'
>;

export const openReviewItem = (fields: OpeningFields, now: string): ReviewItem => ({
  ...fields,
  status: 'open',
  decision: null,
  note: null,
  decided_by: null,
  decided_at: null,
  created_at: now,
  updated_at: now,
});

export const decidedReviewItem = (
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
  actorId: string,
  now: string,
): ReviewItem => ({
  ...review,
  status: decision.action === 'retry' ? 'retried' : 'discarded',
  decision: decision.action,
  note: decision.note ?? null,
  decided_by: actorId,
  decided_at: now,
  updated_at: now,
});

/**
 * The `review_item.decided` audit event a decision on a review item of any kind writes in its
 * transaction. `metadata` defaults to what every kind shares: the action, the kind, the subject
 * and the note.
 */
export const reviewDecidedEvent = (
  clock: Clock,
  actorId: string,
  decided: ReviewItem,
  summary: string,
  metadata: Record<string, unknown> = {
    action: decided.decision,
    kind: decided.kind,
    subject_id: decided.subject_id,
    note: decided.note,
  },
) =>
  auditEvent(clock, {
    tenant_id: decided.tenant_id,
    event_type: 'review_item.decided',
    actor_id: actorId,
    entity_type: 'review_item',
    entity_id: decided.id,
    summary,
    metadata,
  });
