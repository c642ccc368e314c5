import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearerOperations,
  createSampleException,
  footprint,
  SAMPLE_BODIES,
  type Seeded,
  seedTenant,
} from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Text is text (docs/api.md section 11, "Text"): every string field of every operation's body,
 * found by walking its sample body and its schema in the OpenAPI document, and every string query
 * parameter, sent with NUL, another C0 control character and an unpaired surrogate (names and
 * titles also with a bidirectional override and U+FEFF), answers 422 naming that field, and
 * nothing is written.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
};
const doc = JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; requestBody?: any; parameters?: any[] }>>;
  components: { schemas: Record<string, Schema> };
};
const resolve = (s: Schema): Schema =>
  s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]!) : s;
const isFreeString = (s: Schema) => {
  const r = resolve(s);
  const types = [r.type].flat();
  return types.includes('string') && !r.enum && r.const === undefined && !r.format && !r.pattern;
};
/** Top-level string properties of an operation's body schema (every variant of a union). */
const topStrings = (s: Schema): string[] => {
  const r = resolve(s);
  const variants = [...(r.anyOf ?? []), ...(r.oneOf ?? []), ...(r.allOf ?? [])];
  return [
    ...Object.entries(r.properties ?? {})
      .filter(([, p]) => isFreeString(p) || (resolve(p).anyOf ?? []).some(isFreeString))
      .map(([k]) => k),
    ...variants.flatMap(topStrings),
  ];
};
/** Paths of the string values in a sample body. */
const leaves = (v: unknown, path: (string | number)[] = []): (string | number)[][] => {
  if (typeof v === 'string') return [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]));
  return [];
};
const setAt = (body: unknown, path: (string | number)[], value: string): unknown => {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
};

/** Bodies of the operations SAMPLE_BODIES leaves out: never sent as they are, only with a bad string. */
const MORE_SAMPLES: Record<string, unknown> = {
  'tenants.update': { name: 'Renamed Co', timezone: 'Europe/Berlin' },
  'notifications.create': { channel: 'email', recipient: 'x@example.test', subject: 'Hello', body: 'Hi' },
  'preferences.put': { contacts: { email: 'me@example.test' } },
  'reviewItems.decide': { action: 'discard', note: 'Not needed' },
  'integrationConnections.previewMapping': { sample: { amount: '10.00', payer: { name: 'Globex' } } },
  'integrationRepairs.preview': { connection_id: 'c1' },
  'reconciliationRuns.create': { connection_id: 'c1', rule_set: 'payment_reconciliation' },
};

const BAD = { nul: 'a\u0000b', bell: 'ab\u0007', surrogate: 'ab\ud800' };
const BAD_NAME = { ...BAD, override: 'ab\u202e', isolate: '\u2066ab', bom: 'a\ufeffb', newline: 'a\nb' };
const NAMES = new Set(['name', 'title', 'subject', 'display_name', 'counterparty']);
/** Free-form JSON: its strings are free text, whatever their keys are called. */
const FREE_FORM = new Set(['sample', 'payload', 'metadata', 'config', 'entity', 'secrets']);
/** A URL cannot carry an unpaired surrogate (it arrives as U+FFFD), so queries get the others. */
const { surrogate: _, ...BAD_QUERY } = BAD;

let rt: TestRuntime;
let seeded: Seeded;
let exceptionId: string;
beforeAll(async () => {
  rt = await startRuntime();
  seeded = await seedTenant(rt);
  exceptionId = await createSampleException(seeded);
}, 60_000);
afterAll(() => rt?.stop());

describe('text inputs', () => {
  it('every string field of every body and query answers 422 naming it, and nothing is written', async () => {
    const ops = bearerOperations({
      tenant_id: seeded.tenantId,
      exception_id: exceptionId,
      user_id: seeded.members.operator.user_id,
    });
    const before = await footprint(seeded, `/tenants/${seeded.tenantId}/exceptions`);
    const tenantsBefore = (await seeded.api.call('GET', '/tenants?limit=100', { token: seeded.adminToken }))
      .body.items.length;
    const missed: string[] = [];
    let sent = 0;
    for (const { id, op, path } of ops) {
      const item = doc.paths[op.path]![op.method.toLowerCase()]!;
      const cases: { what: string; field: string; method: string; url: string; body?: unknown }[] = [];
      if (op.body) {
        const sample = SAMPLE_BODIES[id] ?? MORE_SAMPLES[id];
        expect(sample, `${id} has a sample body (tests/support/e2e.ts)`).toBeDefined();
        const schema = item.requestBody.content['application/json'].schema as Schema;
        const paths = leaves(sample);
        for (const key of topStrings(schema)) if (!paths.some((p) => p[0] === key)) paths.push([key]);
        for (const p of paths) {
          const field = p.join('.');
          const named = NAMES.has(String(p[p.length - 1])) && !p.some((k) => FREE_FORM.has(String(k)));
          const bad = named ? BAD_NAME : BAD;
          for (const [what, value] of Object.entries(bad))
            cases.push({ what, field, method: op.method, url: path, body: setAt(sample, p, value) });
        }
      }
      for (const param of (item.parameters ?? []) as { in: string; name: string; schema: Schema }[]) {
        if (param.in !== 'query' || !isFreeString(param.schema)) continue;
        for (const [what, value] of Object.entries(BAD_QUERY))
          cases.push({
            what,
            field: param.name,
            method: op.method,
            url: `${path}?${new URLSearchParams({ [param.name]: value })}`,
          });
      }
      for (const c of cases) {
        sent++;
        const r = await seeded.api.call(c.method, c.url, { token: seeded.adminToken, body: c.body });
        const paths = ((r.body?.errors ?? []) as { path: string }[]).map((e) => e.path);
        if (r.status !== 422 || !paths.includes(c.field))
          missed.push(`${id} ${c.field} (${c.what}): ${r.status} ${JSON.stringify(paths)}`);
      }
    }
    expect(missed).toEqual([]);
    // Hundreds of cases: the walk found the fields (a broken walk would find none and pass).
    expect(sent).toBeGreaterThan(300);
    expect(await footprint(seeded, `/tenants/${seeded.tenantId}/exceptions`)).toEqual(before);
    expect(
      (await seeded.api.call('GET', '/tenants?limit=100', { token: seeded.adminToken })).body.items.length,
    ).toBe(tenantsBefore);
  }, 120_000);

  it('free text keeps tab and newline; a name keeps other scripts and emoji', async () => {
    const r = await seeded.api.call('POST', `/tenants/${seeded.tenantId}/exceptions`, {
      token: seeded.adminToken,
      body: {
        ...(SAMPLE_BODIES['exceptions.create'] as object),
        title: 'Überfällig — فاتورة 😀',
        summary: 'Line one\n\tLine two\r\nדו"ח',
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: 'Überfällig — فاتورة 😀',
      summary: 'Line one\n\tLine two\r\nדו"ח',
    });
  });
});
