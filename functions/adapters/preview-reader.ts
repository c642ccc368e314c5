import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Notification } from '#shared/domain/notifications/ports';
import type { PreviewReader } from '#shared/domain/previews/ports';
import type { Task } from '#shared/domain/tasks/ports';
import { reader } from '#shared/table/entity';
import { document, documentRecord } from '#shared/table/entities/document';
import { exception, exceptionRecord } from '#shared/table/entities/exception';
import { notification, notificationRecord } from '#shared/table/entities/notification';
import { task, taskRecord } from '#shared/table/entities/task';
import type { Db } from './dynamo';
import { type KeyQuery, queryFrom } from './query';

/**
 * How many records of one kind a preview reads at most, oldest first. A preview is a look at a
 * tenant's working set, not an export; beyond this the result says what it read (evidence).
 */
export const PREVIEW_READ_MAX = 1000;

async function readUpTo(db: Db, q: KeyQuery, entityName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryFrom(db, { ...q, forward: true }, start, PREVIEW_READ_MAX - items.length);
    items.push(...(out.Items ?? []).filter((i) => i.entity === entityName));
    start = out.LastEvaluatedKey;
  } while (start && items.length < PREVIEW_READ_MAX);
  return items;
}

/** The previews' reads: one Query of each kind's partition of the table (Query only, no index). */
export const previewReader = (db: Db): PreviewReader => ({
  exceptions: async (tenantId) =>
    (await readUpTo(db, exception.query('table', { tenant_id: tenantId }), exception.entity)).map(
      reader<BusinessException>()(exceptionRecord),
    ),
  documents: async (tenantId) =>
    (await readUpTo(db, document.query('table', { tenant_id: tenantId }), document.entity)).map(
      reader<BusinessDocument>()(documentRecord),
    ),
  tasks: async (tenantId) =>
    (await readUpTo(db, task.query('table', { tenant_id: tenantId }), task.entity)).map(
      reader<Task>()(taskRecord),
    ),
  notifications: async (tenantId) =>
    (await readUpTo(db, notification.query('table', { tenant_id: tenantId }), notification.entity)).map(
      reader<Notification>()(notificationRecord),
    ),
});
