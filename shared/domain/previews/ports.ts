import type { Clock } from '#shared/kernel/ids';
import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Notification } from '#shared/domain/notifications/ports';
import type { Task } from '#shared/domain/tasks/ports';

/**
 * The one port of the previews (docs/api.md section 9.5): reads of a tenant's records and nothing
 * else. It has no write method by design; the adapter behind it also refuses writes at the client
 * (functions/adapters/read-only.ts).
 */
export interface PreviewReader {
  exceptions(tenantId: string): Promise<BusinessException[]>;
  documents(tenantId: string): Promise<BusinessDocument[]>;
  tasks(tenantId: string): Promise<Task[]>;
  notifications(tenantId: string): Promise<Notification[]>;
}

export interface PreviewDeps {
  reader: PreviewReader;
  clock: Clock;
}

/** What a preview read, by source; the digest covers exactly these. */
export interface PreviewData {
  exceptions: BusinessException[];
  documents: BusinessDocument[];
  tasks: Task[];
  notifications: Notification[];
}

export type Source = keyof PreviewData;

/** The tenant and the moment a computation runs for. */
export interface PreviewContext {
  tenant_id: string;
  now: Date;
}
