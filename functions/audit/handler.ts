import { storesFromEnv } from '../adapters/stores';
import { httpHandler } from '../lib/http';
import { tenantExists } from '../lib/tenant-exists';

const { audit, tenants } = storesFromEnv();

export const handler = httpHandler(
  'audit',
  {
    'audit.list': ({ params, query: { limit, cursor, ...filter } }) =>
      audit.list(params.tenant_id, filter, { limit, cursor }),
  },
  { tenantExists: tenantExists(tenants) },
);
