import { AUDIT_OPERATIONS } from '#shared/api/operations/audit';
import { auditStore } from '#functions/adapters/audit-store';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { httpHandler } from '#functions/lib/http';
import { tenantExistsIn } from '#functions/lib/tenant-exists';

const db = dbFromEnv();
const audit = auditStore(db);

export const handler = httpHandler(
  AUDIT_OPERATIONS,
  {
    'audit.list': ({ params, query: { limit, cursor, ...filter } }) =>
      audit.list(params.tenant_id, filter, { limit, cursor }),
  },
  { tenantExists: tenantExistsIn(db) },
);
