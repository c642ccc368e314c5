import { TenantPath } from '#shared/api/schemas/common';
import {
  AccountingExportCreate,
  AccountingExportListQuery,
  AccountingExportPath,
} from '#shared/api/schemas/accounting';
import { op } from './operation';

/** The accounting export (docs/api.md section 9.2). */
export const ACCOUNTING_OPERATIONS = {
  'accountingExports.create': op({
    group: 'accounting',
    method: 'POST',
    path: '/tenants/{tenant_id}/accounting-exports',
    summary: "Export up to 50 documents to the tenant's accounting system",
    auth: 'bearer',
    permission: 'accounting_exports.create',
    params: TenantPath,
    body: AccountingExportCreate,
    status: 202,
    alternative: { status: 200, when: 'the export_batch_id was sent before with the same body' },
  }),
  'accountingExports.list': op({
    group: 'accounting',
    method: 'GET',
    path: '/tenants/{tenant_id}/accounting-exports',
    summary: 'List accounting exports, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: AccountingExportListQuery,
    status: 200,
  }),
  'accountingExports.get': op({
    group: 'accounting',
    method: 'GET',
    path: '/tenants/{tenant_id}/accounting-exports/{export_id}',
    summary: 'Get an accounting export with its documents and attempts',
    auth: 'bearer',
    permission: 'tenant.read',
    params: AccountingExportPath,
    status: 200,
  }),
} as const;
