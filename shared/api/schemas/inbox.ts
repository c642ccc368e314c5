import * as z from 'zod/mini';
import { named, pageQuery, text } from './common';

// Declared beside the notification, which carries them (docs/api.md section 7.2).
export {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_PRIORITIES,
  NotificationCategory,
  NotificationPriority,
} from './notifications';
import { NotificationCategory } from './notifications';

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
