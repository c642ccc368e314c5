import { TenantPath } from '#shared/api/schemas/common';
import { ReviewDecision, ReviewItemListQuery, ReviewItemPath } from '#shared/api/schemas/notifications';
import { op } from './operation';

/**
 * The one review queue (docs/api.md section 7): every kind of failed or gated job, with one
 * decision for all of them. Its own route group, apart from notifications, because it decides
 * workflow actions, integration issues and accounting exports as well.
 */
export const REVIEW_OPERATIONS = {
  'reviewItems.list': op({
    group: 'review',
    method: 'GET',
    path: '/tenants/{tenant_id}/review-items',
    summary:
      'List operator review items of every kind (notifications, workflow actions, integration issues, accounting exports), newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: ReviewItemListQuery,
    status: 200,
  }),
  'reviewItems.decide': op({
    group: 'review',
    method: 'POST',
    path: '/tenants/{tenant_id}/review-items/{review_item_id}/decision',
    summary: 'Decide a review item of any kind: retry (the job again) or discard',
    auth: 'bearer',
    permission: 'review_items.decide',
    params: ReviewItemPath,
    body: ReviewDecision,
    status: 200,
  }),
} as const;
