import type { AuditEvent } from '#shared/domain/audit';
import type { Page, PageRequest } from '#shared/kernel/page';
import { reader } from '#shared/table/entity';
import { audit, auditRecord } from '#shared/table/entities/audit';
import type { Db } from './dynamo';
import { putNew } from './records';
import { queryPage } from './query';
import type { WriteOp } from './transact';

/** The Put that every state-changing transaction carries (docs/api.md section 5). */
export const auditPut = (e: AuditEvent): WriteOp => putNew(audit.item(e));

const toAuditEvent = /* @__PURE__ */ reader<AuditEvent>()(auditRecord);

export interface AuditFilter {
  entity_type?: string | undefined;
  entity_id?: string | undefined;
}

export const auditStore = (db: Db) => ({
  list(tenantId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>> {
    const scope = { list: 'audit-events', tenant_id: tenantId, ...filter };
    const { entity_type, entity_id } = filter;
    const query =
      entity_type && entity_id
        ? audit.query('gsi1', { tenant_id: tenantId, entity_type, entity_id })
        : entity_type
          ? audit.query('gsi2', { tenant_id: tenantId, entity_type })
          : audit.query('table', { tenant_id: tenantId });
    return queryPage(db, { scope, ...query, page, map: toAuditEvent });
  },
});

export type AuditStore = ReturnType<typeof auditStore>;
