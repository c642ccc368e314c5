import * as z from 'zod/mini';
import { named, pageQuery, text } from './common';

/** docs/api.md section 7.1: what a notification is about (the member's inbox groups by it). */
export const NOTIFICATION_CATEGORIES = [
  'exceptions',
  'tasks',
  'documents',
  'integrations',
  'accounting',
  'security',
  'general',
] as const;
export const NotificationCategory = named(z.enum(NOTIFICATION_CATEGORIES), 'NotificationCategory');

export const NOTIFICATION_PRIORITIES = ['normal', 'critical'] as const;
export const NotificationPriority = z.enum(NOTIFICATION_PRIORITIES);

/**
 * A boolean query parameter: `true` or `false`, nothing else (`1`, `yes` or `TRUE` are 422). A
 * query value arrives as a string; the OpenAPI document shows the boolean it stands for.
 */
export const queryBool = () => {
  const schema = z.pipe(
    z.transform((value: unknown) => (value === 'true' ? true : value === 'false' ? false : value)),
    z.boolean(),
  );
  z.globalRegistry.add(schema, { type: 'boolean' });
  return schema;
};

export const InboxListQuery = z.strictObject({
  unread: z.optional(queryBool()),
  category: z.optional(NotificationCategory),
  ...pageQuery,
});

export const InboxItemPath = z.object({ tenant_id: text(1, 64), notification_id: text(1, 64) });

export const InboxReadAll = named(
  z.strictObject({ category: z.optional(NotificationCategory) }),
  'InboxReadAll',
);
