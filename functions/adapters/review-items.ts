import type { ReviewItem } from '#shared/domain/notifications/ports';
import { reader } from '#shared/table/entity';
import { reviewItemRecord } from '#shared/table/entities/review-item';

const read = /* @__PURE__ */ reader<ReviewItem>()(reviewItemRecord);

/**
 * A stored review item of any kind as its record. Items written before review items had kinds
 * are notification items, about their notification.
 */
export const toReviewItem = (item: Record<string, unknown>): ReviewItem =>
  read({ ...item, kind: item.kind ?? 'notification', subject_id: item.subject_id ?? item.notification_id });
