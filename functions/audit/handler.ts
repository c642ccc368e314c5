import { AUDIT_OPERATIONS } from '#shared/api/operations/audit';
import { TIMERS_OPERATIONS } from '#shared/api/operations/timers';
import { auditStore } from '#functions/adapters/audit-store';
import { timerStore } from '#functions/adapters/timer-store';
import { dbFor } from '#functions/adapters/dynamo';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';

const db = dbFor(tableConfig());
const audit = auditStore(db);
const timers = timerStore(db);

export const handler = httpHandler(
  { ...AUDIT_OPERATIONS, ...TIMERS_OPERATIONS },
  {
    'audit.list': ({ params, query: { limit, cursor, ...filter } }) =>
      audit.list(params.tenant_id, filter, { limit, cursor }),
    'timers.list': async ({ params, query: { limit, cursor, ...filter } }) => {
      const page = await timers.list(params.tenant_id, filter, { limit, cursor });
      return { ...page, items: page.items.map(({ tenant_id: _, ...timer }) => timer) };
    },
  },
  { tenantExists: tenantExistsIn(db) },
);
