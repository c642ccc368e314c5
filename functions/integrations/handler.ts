import { runDiagnostics } from '#shared/domain/integrations/diagnostics';
import { mappingPreview, repairPreview } from '#shared/domain/integrations/previews';
import {
  getReconciliationRun,
  listReconciliationRuns,
  requestReconciliation,
} from '#shared/domain/integrations/reconciliation-requests';
import { getAdapter, listAdapters } from '#shared/domain/integrations/catalog-read';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
  withHealth,
} from '#shared/domain/integrations/connections';
import { authorizeConnection } from '#shared/domain/oauth/connect';
import { INTEGRATIONS_OPERATIONS } from '#shared/api/operations/integrations';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { dbFor } from '#functions/adapters/dynamo';
import { providerReader } from '#functions/adapters/provider-reader';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { consentStore } from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import {
  allowLoopback,
  clock,
  connectionSecretSettings,
  hubSettings,
  oauthSettings,
  tableConfig,
} from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = {
  connections: connectionStore(db),
  secrets: connectionSecretsFor(connectionSecretSettings()),
  allowLoopback: allowLoopback(),
  hub: hubStore(db),
  provider: providerReader(hubSettings()),
  runs: reconciliationStore(db),
  clock,
};
const connect = {
  connections: deps.connections,
  consents: consentStore(db),
  // Only the consent URL: this function never calls a token endpoint (no app secret is read).
  provider: oauthProvider(oauthSettings(), { read: async () => undefined }),
  clock,
  // Read on each call: the local runtime learns its own address (and so the console's) only once
  // it listens, after this module has loaded.
  get consoleUrl() {
    return oauthSettings().consoleUrl;
  },
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
      withHealth(deps, await getConnection(deps, params.tenant_id, params.connection_id)),
    'integrationConnections.update': ({ principal, params, body }) =>
      updateConnection(deps, principal, params.tenant_id, params.connection_id, body),
    'integrationConnections.delete': ({ principal, params }) =>
      deleteConnection(deps, principal, params.tenant_id, params.connection_id),
    'integrationConnections.diagnose': ({ principal, params }) =>
      runDiagnostics(deps, principal, params.tenant_id, params.connection_id),
    'integrationConnections.authorize': ({ principal, params, query }) =>
      authorizeConnection(connect, principal, params.tenant_id, params.connection_id, query.return_to),
    'integrationConnections.previewMapping': ({ params, body }) =>
      mappingPreview(deps, params.tenant_id, params.connection_id, body),
    'integrationRepairs.preview': ({ params, body }) => repairPreview(deps, params.tenant_id, body),
    'reconciliationRuns.create': ({ principal, params, body }) =>
      requestReconciliation(deps, principal, params.tenant_id, body),
    'reconciliationRuns.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listReconciliationRuns(deps, params.tenant_id, filter, { limit, cursor }),
    'reconciliationRuns.get': ({ params }) => getReconciliationRun(deps, params.tenant_id, params.run_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
