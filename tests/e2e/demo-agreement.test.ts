import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../../scripts/lib/chromium';
import { OPERATIONS } from '#shared/api/manifest';
import { DEMO_PAYLOADS, type DemoOperationId, staticFileName } from '#shared/demo/index';
import {
  DEMO_EXCEPTION,
  DEMO_EXECUTION_REQUEST,
  DEMO_GATEWAY_REQUEST,
  DEMO_INTAKE_REQUEST,
  DEMO_INVOICE,
  DEMO_PAYMENT,
  DEMO_PREVIEW_AT,
  DEMO_RECORDED_AT,
  demoBriefing,
  demoSteps,
} from '#shared/demo/previews';
import {
  briefingRows,
  executionRows,
  gatewayRows,
  intakeRows,
  labelsOf,
  mentionsOf,
} from '#shared/demo/preview-rows';
import { seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { openApiValidator, responseSchemaPointer } from '#tests/support/demo/openapi-support';
import { assertDocumented } from '#tests/support/openapi-check';
import { expectedPageFields, type Field, READ_PAGE_FIELDS } from '#tests/support/demo/page-fields';

/**
 * docs/api.md section 8: the API responses, the static JSON, the OpenAPI schemas and the tables a
 * browser shows all agree. Everything is read from the running local runtime: the demo API, the
 * static site it serves at `/`, and `/openapi.json`.
 */

const ARTIFACTS = new URL('../../test-artifacts/demo/', import.meta.url);
const ids = Object.keys(DEMO_PAYLOADS) as DemoOperationId[];

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

let rt: TestRuntime;
let browser: Browser;
const api = new Map<DemoOperationId, Reply & { body: Record<string, unknown> }>();

const get = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> => {
  const res = await fetch(`${rt.baseUrl}${path}`, { method, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

beforeAll(async () => {
  rt = await startRuntime();
  for (const id of ids) {
    const reply = await get(DEMO_PAYLOADS[id].path);
    api.set(id, { ...reply, body: reply.status === 200 ? JSON.parse(reply.text) : {} });
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
});

describe('demo agreement', () => {
  it.each(ids)('%s: the API answers the source-of-truth body, cacheable', async (id) => {
    const reply = api.get(id)!;
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(DEMO_PAYLOADS[id].body);
    expect(reply.headers.get('cache-control')).toMatch(/\bpublic\b.*\bmax-age=\d+/);
    const etag = reply.headers.get('etag');
    expect(etag).toBe(`"${createHash('sha256').update(reply.text).digest('base64url')}"`);

    const again = await get(DEMO_PAYLOADS[id].path, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const stale = await get(DEMO_PAYLOADS[id].path, { 'if-none-match': '"stale"' });
    expect(stale.status).toBe(200);
  });

  it.each(ids)('%s: other methods answer 405 with Allow', async (id) => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const reply = await get(DEMO_PAYLOADS[id].path, { 'content-type': 'application/json' }, method);
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get('allow')).toMatch(/\bGET\b/);
      expect(reply.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('serves the committed OpenAPI document, and every API body validates against it (ajv)', async () => {
    const reply = await get('/openapi.json');
    expect(reply.status).toBe(200);
    const committed = JSON.parse(
      await readFile(new URL('../../generated/openapi.json', import.meta.url), 'utf8'),
    );
    const served = JSON.parse(reply.text);
    expect(served).toEqual(committed);
    // Its own answer as the document describes it (and counted in the suite's coverage, which
    // otherwise saw `public.openapi` only when the fuzzer happened to ask for it).
    assertDocumented('GET', '/openapi.json', { ...reply, body: served });
    const v = openApiValidator(served);
    for (const id of ids) {
      const { path, method, status } = OPERATIONS[id];
      expect(v.errors(responseSchemaPointer(path, method, status), api.get(id)!.body), id).toEqual([]);
    }
  });

  it('serves the static JSON the page reads, equal to the API bodies', async () => {
    const index = JSON.parse((await get('/data/index.json')).text) as {
      items: { operationId: string; file: string }[];
    };
    expect(index.items.map((i) => i.operationId).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const item = index.items.find((i) => i.operationId === id)!;
      expect(item.file).toBe(staticFileName(DEMO_PAYLOADS[id].path));
      const reply = await get(`/data/${item.file}`);
      expect(reply.status, item.file).toBe(200);
      expect(JSON.parse(reply.text), item.file).toEqual(api.get(id)!.body);
    }
  });

  it('shows in the browser exactly the rows the API answers', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));

    await page.goto(`${rt.baseUrl}/`);
    await page.waitForSelector('body[data-ready]');
    expect(await page.getAttribute('body', 'data-ready')).toBe('true');
    const shown = (await page.evaluate(READ_PAGE_FIELDS)) as Record<string, Record<string, Field>>;

    expect(Object.keys(shown).sort()).toEqual([...ids].sort());
    const publicBody = api.get('demo.public')!.body;
    expect(publicBody.notificationDelivery).toEqual(api.get('demo.notificationDelivery')!.body);
    for (const id of ids) {
      const sameAs: Record<string, string> =
        id === 'demo.public' ? { notificationDelivery: 'demo.notificationDelivery' } : {};
      expect(shown[id], id).toEqual(expectedPageFields(api.get(id)!.body, sameAs));
    }
    // The comparison can fail: one changed cell is seen.
    const changed = structuredClone(api.get('demo.notificationDelivery')!.body) as {
      channels: { maxBodyChars: number }[];
    };
    changed.channels[3]!.maxBodyChars += 1;
    expect(shown['demo.notificationDelivery']).not.toEqual(expectedPageFields(changed));

    const origin = new URL(rt.baseUrl).origin;
    expect(requests.filter((u) => new URL(u).origin !== origin && !u.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(await page.context().cookies()).toEqual([]);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL('page.png', ARTIFACTS).pathname });
    await page.screenshot({ path: new URL('page-full.png', ARTIFACTS).pathname, fullPage: true });
    await page.close();
  });

  it('shows the previews the real endpoints compute for the demo tenant’s records', async () => {
    const s = await seedTenant(rt);
    const post = async (path: string, body: unknown) => {
      const r = await s.api.call('POST', `/tenants/${s.tenantId}${path}`, {
        token: s.members.manager.token,
        body,
      });
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
      return r.body;
    };
    const invoice = await post('/documents', DEMO_INVOICE);
    await post(`/documents/${invoice.id}/status`, { status: 'open' });
    const payment = await post('/documents', { ...DEMO_PAYMENT, applies_to: invoice.id });
    const exception = await post('/exceptions', { ...DEMO_EXCEPTION, subject_id: invoice.id });
    const labels = labelsOf({ documents: [invoice, payment], exceptions: [exception] });
    const steps = demoSteps(exception.id, invoice.id);
    const shown = api.get('demo.public')!.body as Record<string, Record<string, unknown>>;

    const execution = await post('/previews/action-execution', {
      ...DEMO_EXECUTION_REQUEST,
      action_steps: steps,
    });
    expect(shown.actionExecution).toMatchObject(executionRows(execution, labels));
    const gateway = await post('/previews/approval-gateway', {
      ...DEMO_GATEWAY_REQUEST,
      execution_plan: steps,
    });
    expect(shown.approvalGateway).toMatchObject(gatewayRows(gateway, labels));
    // The comparison can fail: another requester changes the routing the demo shows.
    const other = await post('/previews/approval-gateway', {
      ...DEMO_GATEWAY_REQUEST,
      requester_role: 'operator',
      execution_plan: steps,
    });
    expect(shown.approvalGateway).not.toMatchObject(gatewayRows(other, labels));
  });

  it('shows the briefing and intake pipeline the real endpoints compute, at the demo’s clock', async () => {
    const s = await seedTenant(rt);
    const post = async (path: string, body: unknown) => {
      const r = await s.api.call('POST', `/tenants/${s.tenantId}${path}`, {
        token: s.members.manager.token,
        body,
      });
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
      return r.body;
    };
    // The runtime runs in this process: its clock is this Date. The records get the demo's
    // timestamps and the previews run at the demo's moment (ages and due dates count from it).
    vi.useFakeTimers({ toFake: ['Date'], now: DEMO_RECORDED_AT });
    try {
      const invoice = await post('/documents', DEMO_INVOICE);
      await post(`/documents/${invoice.id}/status`, { status: 'open' });
      const payment = await post('/documents', { ...DEMO_PAYMENT, applies_to: invoice.id });
      const exception = await post('/exceptions', { ...DEMO_EXCEPTION, subject_id: invoice.id });
      const data = { documents: [invoice, payment], exceptions: [exception] };
      const [labels, mentions] = [labelsOf(data), mentionsOf(data)];
      const shown = api.get('demo.public')!.body as Record<string, Record<string, unknown>>;
      vi.setSystemTime(DEMO_PREVIEW_AT);

      const briefing = await post('/previews/briefing', demoBriefing(invoice.id));
      expect(shown.contextAssistant).toMatchObject(briefingRows(briefing, labels, mentions));
      expect(shown.contextAssistant!.subject).toBe(labels('document', invoice.id));
      const intake = await post('/previews/intake-pipeline', DEMO_INTAKE_REQUEST);
      expect(shown.intakePipeline).toMatchObject(intakeRows(intake, labels, mentions));

      // The comparison can fail: a day later the same records are a day older.
      vi.setSystemTime(new Date(DEMO_PREVIEW_AT.getTime() + 24 * 3_600_000));
      const later = await post('/previews/briefing', demoBriefing(invoice.id));
      expect(shown.contextAssistant).not.toMatchObject(briefingRows(later, labels, mentions));
    } finally {
      vi.useRealTimers();
    }
  });
});
