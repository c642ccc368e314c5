// Smoke test of the generated JavaScript client (plain Node, no TypeScript): run by
// tests/e2e/clients/smoke.test.ts with OPS_BASE_URL, OPS_EMAIL, OPS_PASSWORD and OPS_TENANT set.
// Prints one JSON line with what it saw.
import {
  ApiError,
  createOpsClient,
  demoPublic,
  exceptionsCreate,
  exceptionsList,
  login,
  tenantsCreate,
} from '../../../clients/javascript/index.js';

const { OPS_BASE_URL: baseUrl, OPS_EMAIL: email, OPS_PASSWORD: password, OPS_TENANT: tenant } = process.env;

const client = createOpsClient({ baseUrl });
await login(client, email, password);
await tenantsCreate({ client, body: { id: tenant, name: 'Smoke test (JavaScript)' } });
const { data: created } = await exceptionsCreate({
  client,
  path: { tenant_id: tenant },
  body: {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'supplier_invoice',
    subject_id: 'INV-20417',
    title: 'Payment below invoice (JavaScript client)',
    summary: 'Paid 540.00 USD less than invoiced.',
  },
});
const { data: page } = await exceptionsList({ client, path: { tenant_id: tenant } });
const { data: demo } = await demoPublic({ client });

const failure = async (call) => {
  try {
    await call();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      status: error.status,
      code: error.code,
      paths: error.errors.map((e) => e.path),
      requestId: error.requestId,
    };
  }
};
const validation = await failure(() =>
  exceptionsCreate({ client, path: { tenant_id: tenant }, body: { title: 'x', unexpected: true } }),
);
const unauthenticated = await failure(() =>
  exceptionsList({ client: createOpsClient({ baseUrl }), path: { tenant_id: tenant } }),
);

console.log(
  JSON.stringify({
    created: { id: created.id, status: created.status, tenant_id: created.tenant_id },
    listed: page.items.map((e) => e.id),
    demoTitle: demo.title,
    outboxKind: demo.notificationDelivery.outboxEvent.kind,
    validation,
    unauthenticated,
  }),
);
