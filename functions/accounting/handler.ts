import { createExport, getExport, listExports } from '#shared/domain/accounting/use-cases';
import { ACCOUNTING_OPERATIONS } from '#shared/api/operations/accounting';
import { accountingStore } from '#functions/adapters/accounting-store';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import { dbFor } from '#functions/adapters/dynamo';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { HttpResult } from '#functions/http/dispatch';

const db = dbFor(tableConfig());
const deps = {
  exports: accountingStore(db),
  documents: documentStore(db),
  connections: connectionStore(db),
  clock,
};

export const handler = httpHandler(
  ACCOUNTING_OPERATIONS,
  {
    // A repeated export_batch_id with the same body answers the export it made: 200, not 202.
    'accountingExports.create': async ({ principal, params, body }) => {
      const { export: e, created } = await createExport(deps, principal, params.tenant_id, body);
      return created ? e : new HttpResult(e, {}, 200);
    },
    'accountingExports.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listExports(deps, params.tenant_id, filter, { limit, cursor }),
    'accountingExports.get': ({ params }) => getExport(deps, params.tenant_id, params.export_id),
  },
  { tenantExists: tenantExistsIn(db) },
);
