import type { AuditEvent } from '#shared/domain/audit';
import type { Page, PageRequest } from '#shared/kernel/page';
import { ENTITY } from '#shared/table/table';
import * as keys from '#shared/table/keys';
import { type Db, pick, putNew, queryPage, type WriteOp } from './dynamo';

const FIELDS = [
  'id',
  'tenant_id',
  'event_type',
  'actor_id',
  'entity_type',
  'entity_id',
  'summary',
  'metadata_json',
  'created_at',
] as const;

/** The Put that every state-changing transaction carries (docs/api.md section 5). */
export const auditPut = (e: AuditEvent): WriteOp =>
  putNew({
    ...keys.audit(e.tenant_id, e.id),
    ...(e.entity_type && e.entity_id
      ? keys.auditEntityIndex(e.tenant_id, e.entity_type, e.entity_id, e.id)
      : {}),
    ...(e.entity_type ? keys.auditEntityTypeIndex(e.tenant_id, e.entity_type, e.id) : {}),
    entity: ENTITY.audit,
    ...e,
  });

export interface AuditFilter {
  entity_type?: string | undefined;
  entity_id?: string | undefined;
}

export const auditStore = (db: Db) => ({
  list(tenantId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>> {
    const scope = { list: 'audit-events', tenant_id: tenantId, ...filter };
    const map = (item: Record<string, unknown>) => pick(item, FIELDS) as unknown as AuditEvent;
    if (filter.entity_type && filter.entity_id) {
      const { gsi1pk } = keys.auditEntityIndex(tenantId, filter.entity_type, filter.entity_id, '');
      return queryPage(db, { scope, index: 'gsi1', partition: gsi1pk, page, map });
    }
    if (filter.entity_type) {
      const { gsi2pk } = keys.auditEntityTypeIndex(tenantId, filter.entity_type, '');
      return queryPage(db, { scope, index: 'gsi2', partition: gsi2pk, page, map });
    }
    return queryPage(db, { scope, partition: keys.audit(tenantId, '').pk, page, map });
  },
});

export type AuditStore = ReturnType<typeof auditStore>;
