import {
  createConnection,
  deleteConnection,
  getAdapter,
  getConnection,
  listAdapters,
  listConnections,
  toConnectionRead,
  updateConnection,
} from '#shared/domain/integrations/use-cases';
import { INTEGRATIONS_OPERATIONS } from '#shared/api/operations/integrations';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { allowLoopbackWebhooks, clock, connectionSecretSettings, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = {
  connections: connectionStore(db),
  secrets: connectionSecretsFor(connectionSecretSettings()),
  allowLoopbackTargets: allowLoopbackWebhooks(),
  clock,
};

export const handler = httpHandler(
  INTEGRATIONS_OPERATIONS,
  {
    'adapters.list': async ({ query }) => listAdapters(query.category),
    'adapters.get': async ({ params }) => getAdapter(params.adapter_key),
    'integrationConnections.create': ({ principal, params, body }) =>
      createConnection(deps, principal, params.tenant_id, body),
    'integrationConnections.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listConnections(deps, params.tenant_id, filter, { limit, cursor }),
    'integrationConnections.get': async ({ params }) =>
      toConnectionRead(await getConnection(deps, params.tenant_id, params.connection_id)),
    'integrationConnections.update': ({ principal, params, body }) =>
      updateConnection(deps, principal, params.tenant_id, params.connection_id, body),
    'integrationConnections.delete': ({ principal, params }) =>
      deleteConnection(deps, principal, params.tenant_id, params.connection_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
