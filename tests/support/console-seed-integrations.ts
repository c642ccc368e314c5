import { client, type Reply } from './http';
import { until } from './e2e';
import { ACME, GLOBEX, PEOPLE } from './console-seed';

/**
 * The integrations screens' data, on top of seedConsole (README walkthrough's reconciliation):
 * in Acme, Ledgerly books (secret set, diagnostics every hour, reconciliation every 6 hours,
 * diagnosed healthy, one completed run whose PAY-1002 mismatch opened an exception) and Xero books
 * (created, not yet connected by consent); in Globex, a connection only Globex's members may see.
 */
export interface IntegrationsSeed {
  ledgerly: string;
  xero: string;
  run: string;
  mismatch: string;
  globex: string;
}

/** Never shown by any screen or answer: what the tests look for on the page. */
export const LEDGERLY_SECRET = 'ledgerly-client-secret-5c1e';

const ok = <T>(r: Reply<T>, what: string): T => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export async function seedIntegrations(baseUrl: string, adminToken: string): Promise<IntegrationsSeed> {
  const api = client(baseUrl);
  const olivia = await api.login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, token = olivia) =>
    ok(
      await api.call<any>(method, path, { token, ...(body === undefined ? {} : { body }) }),
      `${method} ${path}`,
    );
  const acme = (path: string, body?: unknown) =>
    call(body === undefined ? 'GET' : 'POST', `/tenants/${ACME}/${path}`, body);

  // The provider sandbox serves PAY-1001 for 250.00 and PAY-1002 for 245.00 EUR.
  for (const [number, amount] of [
    ['PAY-1001', '250.00'],
    ['PAY-1002', '240.00'],
  ]) {
    const doc = await acme('documents', {
      document_type: 'payment',
      number,
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount,
      issued_on: '2026-01-31',
    });
    await acme(`documents/${doc.id}/status`, { status: 'open' });
  }
  const ledgerly = (
    await acme('integration-connections', {
      adapter_key: 'ledgerly',
      name: 'Ledgerly books',
      config: {
        organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
        region: 'eu',
        base_currency: 'EUR',
        sales_account_code: '200',
        payment_account_code: '090',
      },
      mapping: {
        number: 'InvoiceNumber',
        counterparty: 'Contact.Name',
        amount: 'Total',
        currency: 'CurrencyCode',
        issued_on: 'Date',
        account_code: 'LineItems[].AccountCode',
      },
      secret: { client_id: 'ledgerly-console-app', client_secret: LEDGERLY_SECRET },
      schedule: { diagnostics_every_hours: 1, reconciliation_every_hours: 6 },
    })
  ).id as string;
  await acme(`integration-connections/${ledgerly}/diagnostics`, {});
  const run = (
    await acme('reconciliation-runs', { connection_id: ledgerly, rule_set: 'payment_reconciliation' })
  ).id as string;
  const done = await until(async () => {
    const r = await acme(`reconciliation-runs/${run}`);
    return r.status === 'queued' ? undefined : r;
  }, 'the seeded reconciliation run to complete');
  if (done.status !== 'completed' || done.exception_ids.length !== 1)
    throw new Error(`seeded run: ${JSON.stringify(done)}`);

  const xero = (
    await acme('integration-connections', {
      adapter_key: 'xero',
      name: 'Xero books',
      config: { sales_account_code: '200' },
    })
  ).id as string;
  const globex = (
    await call(
      'POST',
      `/tenants/${GLOBEX}/integration-connections`,
      {
        adapter_key: 'tallybook',
        name: 'Globex ledger',
        config: { company_id: '200731', ledger: 'sales', currency: 'EUR' },
      },
      adminToken,
    )
  ).id as string;
  return { ledgerly, xero, run, mismatch: done.exception_ids[0], globex };
}
