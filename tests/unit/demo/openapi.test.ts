import { readFile } from 'node:fs/promises';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { PERMISSIONS, ROLES } from '#shared/kernel/policy';
import { DEMO_PAYLOADS } from '#shared/demo/index';
import { buildOpenApi, EXAMPLES } from '#shared/api/openapi';
import { serviceOpenApi } from '#shared/demo/openapi';
import {
  type OpenApiDoc,
  openApiValidator,
  pointer,
  responseSchemaPointer,
} from '#tests/support/demo/openapi-support';

const doc = serviceOpenApi() as unknown as OpenApiDoc;
const ops = Object.entries(OPERATIONS) as [string, Operation][];
const operationOf = (op: Operation) => doc.paths[op.path]![op.method.toLowerCase()]!;

describe('OpenAPI document', () => {
  it('is the committed generated/openapi.json (run npm run build:openapi after changing the API)', async () => {
    const committed = await readFile(new URL('../../../generated/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('is what the public function serves: generated/openapi-brotli.ts holds the same document', async () => {
    const { OPENAPI_BROTLI } = await import('#generated/openapi-brotli');
    const served = brotliDecompressSync(Buffer.from(OPENAPI_BROTLI, 'base64')).toString('utf8');
    expect(served).toBe(JSON.stringify(doc));
  });

  it('is deterministic', () => {
    expect(JSON.stringify(serviceOpenApi())).toBe(JSON.stringify(doc));
  });

  it("takes the demo routes' records and bodies from the demo (shared/demo/openapi.ts), not from the API", () => {
    const alone = buildOpenApi() as unknown as OpenApiDoc;
    for (const [id, { path }] of Object.entries(DEMO_PAYLOADS)) {
      const served = alone.paths[path]!.get! as { responses: Record<string, unknown> };
      expect([id, served.responses['304'], JSON.stringify(served).includes('"example"')]).toEqual([
        id,
        undefined,
        false,
      ]);
      expect(doc.paths[path]!.get!.responses).toHaveProperty('304');
    }
  });

  it('is OpenAPI 3.1 and describes every operation of the manifest, and nothing else', () => {
    expect(doc.openapi).toBe('3.1.0');
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, o]) => `${method.toUpperCase()} ${path} ${o.operationId}`),
    );
    expect(described.sort()).toEqual(ops.map(([id, op]) => `${op.method} ${op.path} ${id}`).sort());
  });

  it.each(ops)('%s: parameters, security and responses follow the manifest', (id, op) => {
    const o = operationOf(op);
    const params = (o.parameters ?? []) as { name: string; in: string; required: boolean }[];
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      expect(params.find((p) => p.in === 'path' && p.name === name)?.required, name).toBe(true);
    }
    if (op.query instanceof z.ZodObject) {
      for (const name of Object.keys(op.query.shape))
        expect(
          params.some((p) => p.in === 'query' && p.name === name),
          name,
        ).toBe(true);
    }
    expect(o.security).toEqual(op.auth === 'bearer' ? [{ bearerAuth: [] }] : []);
    expect(Object.keys(o.responses)).toContain(String(op.status));
    expect(Boolean(o.requestBody), 'request body').toBe(Boolean(op.body));

    const errors = Object.keys(o.responses)
      .filter((s) => Number(s) >= 400)
      .map(Number);
    const expected = [429, 500];
    if (op.body) expected.push(400, 413, 415, 422);
    if (op.auth === 'bearer') expected.push(401);
    // 403 only where a tenant role lacks the permission (docs/api.md section 3's matrix).
    if (op.permission && ROLES.some((r) => !(PERMISSIONS[op.permission!] as readonly string[]).includes(r)))
      expected.push(403);
    if (op.path.includes('{')) expected.push(404);
    for (const s of expected) expect(errors, `${id} ${s}`).toContain(s);
    for (const s of errors) {
      // An error with headers of its own (a 422 with Location) is inline; the others are shared.
      const ref = o.responses[String(s)]!.$ref;
      const response = ref
        ? doc.components.responses[ref.split('/').pop()!]!
        : (o.responses[String(s)] as typeof doc.components.responses.x & object);
      expect(response.content['application/problem+json']?.schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
    }
  });

  it('declares the bearer scheme and the problem responses', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const statuses = Object.values(doc.components.responses).map(
      (r) => (r.content['application/problem+json']!.example as { status: number }).status,
    );
    expect(statuses.sort()).toEqual([400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 503]);
  });

  it('makes request fields with a default optional (input side) and keeps them in responses (output side)', () => {
    const create = doc.components.schemas.BusinessExceptionCreate!;
    expect(create.required).not.toContain('severity');
    expect(create.properties?.severity?.default).toBe('warning');
    expect(doc.components.schemas.AccessTokenRead?.required).toContain('token_type');
  });

  it('compiles with ajv, and every example validates against its schema', () => {
    const v = openApiValidator(doc);
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(item)) {
        const body = o.requestBody?.content?.['application/json'];
        if (body?.example !== undefined) {
          expect(
            v.errors(
              pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
              body.example,
            ),
          ).toEqual([]);
          checked++;
        }
        for (const [status, r] of Object.entries(o.responses)) {
          const content = r.content?.['application/json'];
          if (content?.example === undefined) continue;
          expect(
            v.errors(responseSchemaPointer(path, method, Number(status)), content.example),
            `${method} ${path}`,
          ).toEqual([]);
          checked++;
        }
      }
    }
    for (const r of Object.values(doc.components.responses)) {
      expect(
        v.errors('#/components/schemas/Problem', r.content['application/problem+json']?.example),
      ).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(
      Object.keys(DEMO_PAYLOADS).length + Object.keys(EXAMPLES).length + 11,
    );
  });

  it('rejects what the schemas forbid (the validator can fail)', () => {
    const v = openApiValidator(doc);
    const { path, method, status } = OPERATIONS['demo.notificationDelivery'];
    const good = DEMO_PAYLOADS['demo.notificationDelivery'].body as Record<string, unknown>;
    expect(v.errors(responseSchemaPointer(path, method, status), { ...good, status: 'live' })).not.toEqual(
      [],
    );
    expect(v.errors(responseSchemaPointer(path, method, status), { ...good, leaked: 'x' })).not.toEqual([]);
  });

  it('uses the demo payloads as the examples of the demo operations, with ETag and 304', () => {
    for (const [id, { path }] of Object.entries(DEMO_PAYLOADS)) {
      const o = doc.paths[path]!.get!;
      const ok = o.responses['200']!;
      expect(o.operationId).toBe(id);
      expect(ok.content?.['application/json']?.example).toEqual(
        DEMO_PAYLOADS[id as keyof typeof DEMO_PAYLOADS].body,
      );
      expect(Object.keys(ok.headers ?? {})).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
      expect(o.responses['304']).toBeDefined();
    }
  });
});
