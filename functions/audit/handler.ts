import { AUDIT_OPERATIONS } from '../../shared/operations/audit';
import { auditStore } from '../adapters/audit-store';
import { dbFromEnv } from '../adapters/dynamo';
import { httpHandler } from '../lib/http';
import { tenantExistsIn } from '../lib/tenant-exists';

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
