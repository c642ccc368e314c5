import { listEventTypes } from '#shared/domain/webhooks/catalog';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '#shared/domain/webhooks/endpoints';
import { listMessages, recoverMessages, resendMessage, testEndpoint } from '#shared/domain/webhooks/messages';
import { WEBHOOKS_OPERATIONS } from '#shared/api/operations/webhooks';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { allowLoopback, clock, connectionSecretSettings, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const endpoints = webhookEndpointStore(db);
// Write-only here: the secrets are put and deleted, never read (infra grants no read).
const deps = {
  endpoints,
  secrets: webhookSecrets(connectionSecretsFor(connectionSecretSettings())),
  allowLoopback: allowLoopback(),
  clock,
};
const log = { endpoints, messages: webhookMessageStore(db), clock };

export const handler = httpHandler(
  WEBHOOKS_OPERATIONS,
  {
    'eventTypes.list': async () => listEventTypes(),
    'webhookEndpoints.create': ({ principal, params, body }) =>
      createEndpoint(deps, principal, params.tenant_id, body),
    'webhookEndpoints.list': ({ params, query }) => listEndpoints(deps, params.tenant_id, query),
    'webhookEndpoints.get': ({ params }) => getEndpoint(deps, params.tenant_id, params.endpoint_id),
    'webhookEndpoints.update': ({ principal, params, body }) =>
      updateEndpoint(deps, principal, params.tenant_id, params.endpoint_id, body),
    'webhookEndpoints.delete': ({ principal, params }) =>
      deleteEndpoint(deps, principal, params.tenant_id, params.endpoint_id),
    'webhookEndpoints.rotateSecret': ({ principal, params }) =>
      rotateSecret(deps, principal, params.tenant_id, params.endpoint_id),
    'webhookEndpoints.test': ({ principal, params }) =>
      testEndpoint(log, principal, params.tenant_id, params.endpoint_id),
    'webhookEndpoints.recover': ({ principal, params, body }) =>
      recoverMessages(log, principal, params.tenant_id, params.endpoint_id, body.since),
    'webhookMessages.list': ({ params, query: { status, limit, cursor } }) =>
      listMessages(log, params.tenant_id, params.endpoint_id, status, { limit, cursor }),
    'webhookMessages.resend': ({ principal, params }) =>
      resendMessage(log, principal, params.tenant_id, params.endpoint_id, params.message_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
