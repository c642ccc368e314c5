import { AuditListQuery } from '#shared/api/schemas/audit';
import { TenantPath } from '#shared/api/schemas/common';
import { op } from './operation';

/** The audit log (docs/api.md section 5). */
export const AUDIT_OPERATIONS = {
  'audit.list': op({
    group: 'audit',
    method: 'GET',
    path: '/tenants/{tenant_id}/audit-events',
    summary: "List the tenant's audit events, newest first",
    auth: 'bearer',
    permission: 'audit.read',
    params: TenantPath,
    query: AuditListQuery,
    status: 200,
  }),
} as const;
