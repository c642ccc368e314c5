import { AUDIT_OPERATIONS } from '#shared/api/operations/audit';
import { auditStore } from '#functions/adapters/audit-store';
import { dbFor } from '#functions/adapters/dynamo';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';

const db = dbFor(tableConfig());
const audit = auditStore(db);

export const handler = httpHandler(
  AUDIT_OPERATIONS,
  {
    'audit.list': ({ params, query: { limit, cursor, ...filter } }) =>
      audit.list(params.tenant_id, filter, { limit, cursor }),
  },
  { tenantExists: tenantExistsIn(db) },
);
