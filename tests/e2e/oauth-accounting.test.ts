import { randomUUID } from 'node:crypto';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground, type Background } from '#local/background';
import { LOCAL_AWS_ENV } from '#local/dynamodb-local';
import { SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import { captureLogLines } from '#tests/support/logs';
import { type Seeded, seedTenant } from '#tests/support/e2e';
import { assertDocumented } from '#tests/support/openapi-check';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Xero through the sandbox, end to end (docs/connecting-accounting.md): a manager asks for the
 * consent URL, the sandbox's consent page (prompt=auto) sends the browser to the callback, the
 * callback keeps the tokens as the connection's secret, and an export books invoices in Xero once
 * each. Then the callback's faults, a consent revoked mid-way, and a scan for tokens anywhere.
 */

let rt: TestRuntime;
let bg: Background;
let s: Seeded;
let connectionId: string;
let logs: Record<string, unknown>[];

const until = async <T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A browser's GET without following redirects; the service's answers are checked against the document. */
const browse = async (url: string) => {
  const res = await fetch(url, { redirect: 'manual' });
  const body = await res.text();
  if (url.startsWith(rt.baseUrl))
    assertDocumented('GET', url.slice(rt.baseUrl.length), { status: res.status, headers: res.headers, body });
  return { status: res.status, location: res.headers.get('location'), body, headers: res.headers };
};

const authorize = async () => {
  const r = await s.api.call(
    'POST',
    `/tenants/${s.tenantId}/integration-connections/${connectionId}/authorize`,
    {
      token: s.members.manager.token,
    },
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { authorize_url: string; expires_at: string };
};

/** The consent page approves at once with prompt=auto: its redirect is the callback URL. */
const consent = async () => {
  const { authorize_url } = await authorize();
  const url = new URL(authorize_url);
  url.searchParams.set('prompt', 'auto');
  const page = await browse(url.toString());
  expect(page.status).toBe(302);
  return page.location!;
};

const exportDocs = async (numbers: string[]) => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/accounting-exports`, {
    token: s.members.accountant.token,
    body: {
      export_batch_id: `b-${randomUUID().slice(0, 8)}`,
      integration_connection_id: connectionId,
      documents: numbers.map((number) => ({
        number,
        amount: '120.00',
        currency: 'EUR',
        counterparty: 'Acme',
      })),
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.id as string;
};

const settled = (id: string) =>
  until(async () => {
    const r = await s.api.call('GET', `/tenants/${s.tenantId}/accounting-exports/${id}`, {
      token: s.members.support.token,
    });
    return ['exported', 'failed', 'partially_exported'].includes(r.body.status) ? r.body : undefined;
  }, `export ${id} to settle`);

const xeroNumbers = () => Array.from({ length: 2 }, () => `INV-${randomUUID().slice(0, 8)}`);

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUEUE_MS_PER_SECOND: '10', OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000' });
  bg = activeBackground()!;
  s = await seedTenant(rt);
  logs = captureLogLines();
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/integration-connections`, {
    token: s.members.owner.token,
    body: { adapter_key: 'xero', name: 'Xero books', config: { sales_account_code: '200' } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  connectionId = r.body.id;
}, 120_000);

afterAll(async () => {
  await rt?.stop();
});

describe('Xero connected by OAuth 2 through the sandbox', () => {
  it('connects through the consent page and exports two invoices, each booked once', async () => {
    const { authorize_url, expires_at } = await authorize();
    const url = new URL(authorize_url);
    // A web app with a client secret: Xero's standard flow, no PKCE (docs/connecting-accounting.md).
    expect(url.searchParams.get('code_challenge')).toBeNull();
    expect(url.searchParams.get('code_challenge_method')).toBeNull();
    expect(url.searchParams.get('scope')).toBe('accounting.transactions accounting.contacts offline_access');
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(590_000);
    url.searchParams.set('prompt', 'auto');
    const consentPage = await browse(url.toString());
    const callback = await browse(consentPage.location!);
    expect(callback.status).toBe(200);
    expect(callback.headers.get('content-type')).toMatch(/^text\/html/);
    expect(callback.body).toContain('Xero is connected');

    const c = await s.api.call('GET', `/tenants/${s.tenantId}/integration-connections/${connectionId}`, {
      token: s.members.support.token,
    });
    expect(c.body).toMatchObject({
      secret_configured: true,
      config: { organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId, sales_account_code: '200' },
    });

    const numbers = xeroNumbers();
    const done = await settled(await exportDocs(numbers));
    expect(done.status).toBe('exported');
    for (const n of numbers) expect(bg.sandbox.oauth.apis.bookingCount('xero', n)).toBe(1);
    const puts = bg.sandbox.oauth.apis.calls.filter((x) => x.method === 'PUT');
    expect(puts.length).toBeGreaterThanOrEqual(2);
  });

  it('a connection whose adapter is not connected by OAuth 2 is 422 not_oauth2, naming connection_id (documented)', async () => {
    const c = await s.api.call('POST', `/tenants/${s.tenantId}/integration-connections`, {
      token: s.members.owner.token,
      body: {
        adapter_key: 'tallybook',
        name: 'Secret-keyed books',
        config: { company_id: '104522', ledger: 'sales', currency: 'EUR' },
      },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const r = await s.api.call(
      'POST',
      `/tenants/${s.tenantId}/integration-connections/${c.body.id}/authorize`,
      {
        token: s.members.manager.token,
      },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'connection_id', code: 'not_oauth2' })]);
  });

  it('a used, forged or expired state, a callback without code and a refused exchange change nothing', async () => {
    const first = await consent();
    expect((await browse(first)).status).toBe(200);
    // The same state again: already used.
    const reused = await browse(first);
    expect(reused.status).toBe(400);
    expect(reused.body).toContain('already used');
    // A state the service never issued.
    const forged = new URL(first);
    forged.searchParams.set('state', randomUUID().replace(/-/g, ''));
    expect((await browse(forged.toString())).status).toBe(400);
    // No code (the state is then spent: a new consent is needed).
    const noCode = new URL(await consent());
    noCode.searchParams.delete('code');
    const missing = await browse(noCode.toString());
    expect(missing.status).toBe(400);
    expect(missing.body).not.toMatch(/sbx-|stack|Error:/);
    // The provider refuses the exchange.
    bg.sandbox.oauth.refuseNextToken('invalid_grant');
    const refused = await browse(await consent());
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('refused the authorization');
    // Still connected with the pair of the first consent.
    const c = await s.api.call('GET', `/tenants/${s.tenantId}/integration-connections/${connectionId}`, {
      token: s.members.support.token,
    });
    expect(c.body.secret_configured).toBe(true);
  });

  it('a consent revoked mid-way stops sending: reauthorization_required, issue, review; a new consent and a retry book each once', async () => {
    bg.sandbox.oauth.expireAccessTokens();
    bg.sandbox.oauth.revokeRefreshTokens();
    const numbers = xeroNumbers();
    const id = await exportDocs(numbers);
    const failed = await settled(id);
    expect(failed.status).toBe('failed');
    expect(failed.items.map((i: { error_code: string }) => i.error_code)).toEqual([
      'reauthorization_required',
      'reauthorization_required',
    ]);
    for (const n of numbers) expect(bg.sandbox.oauth.apis.bookingCount('xero', n)).toBe(0);
    const c = await s.api.call('GET', `/tenants/${s.tenantId}/integration-connections/${connectionId}`, {
      token: s.members.support.token,
    });
    expect(c.body.health).toMatchObject({ state: 'failing', reason: 'reauthorization_required' });
    const reviews = await s.api.call('GET', `/tenants/${s.tenantId}/review-items?status=open`, {
      token: s.members.manager.token,
    });
    const kinds = reviews.body.items.map((i: { kind: string }) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(['integration_issue', 'accounting_export']));

    // Authorized again: the issue resolves; the export's retry books what was not sent, once.
    expect((await browse(await consent())).status).toBe(200);
    const exportReview = reviews.body.items.find(
      (i: { kind: string; subject_id: string }) => i.kind === 'accounting_export' && i.subject_id === id,
    );
    const decided = await s.api.call(
      'POST',
      `/tenants/${s.tenantId}/review-items/${exportReview.id}/decision`,
      { token: s.members.manager.token, body: { action: 'retry' } },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await settled(id)).status).toBe('exported');
    for (const n of numbers) expect(bg.sandbox.oauth.apis.bookingCount('xero', n)).toBe(1);
    const healed = await s.api.call('GET', `/tenants/${s.tenantId}/integration-connections/${connectionId}`, {
      token: s.members.support.token,
    });
    expect(healed.body.health.state).not.toBe('failing');
  });

  it('never shows a token: not in a read, a log line, the audit log or any table item', async () => {
    const issued = /sbx-(at|rt)-[0-9a-f-]{36}/;
    const reads = await Promise.all([
      s.api.call('GET', `/tenants/${s.tenantId}/integration-connections`, { token: s.members.owner.token }),
      s.api.call('GET', `/tenants/${s.tenantId}/audit-events?limit=100`, { token: s.members.owner.token }),
    ]);
    expect(reads[1].status).toBe(200);
    expect(JSON.stringify(reads[1].body)).toContain('integration_connection.authorized');
    for (const r of reads) expect(JSON.stringify(r.body)).not.toMatch(issued);
    expect(JSON.stringify(logs)).not.toMatch(issued);
    const ddb = new DynamoDBClient({
      endpoint: rt.endpoint,
      region: LOCAL_AWS_ENV.AWS_REGION,
      credentials: {
        accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
        secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
      },
    });
    let start: Record<string, unknown> | undefined;
    let scanned = 0;
    do {
      const page = await ddb.send(
        new ScanCommand({ TableName: rt.tableName, ExclusiveStartKey: start as never }),
      );
      scanned += page.Items?.length ?? 0;
      expect(JSON.stringify(page.Items ?? [])).not.toMatch(issued);
      start = page.LastEvaluatedKey;
    } while (start);
    expect(scanned).toBeGreaterThan(0);
    // The sandbox did issue tokens, so the scan looked for something real.
    expect(bg.sandbox.oauth.tokenCalls.filter((t) => t.status === 200).length).toBeGreaterThan(0);
  });
});
