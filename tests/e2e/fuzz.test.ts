import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import {
  bearerOperations,
  createSampleException,
  type Seeded,
  SAMPLE_BODIES,
  seedTenant,
} from '#tests/support/e2e';
import type { Reply } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * "Every bad input gets the clear error of docs/api.md section 2": random JSON bodies (near-valid
 * ones built from each operation's sample body, and arbitrary JSON) and random query strings,
 * sent as the platform admin to every operation, never get a 500, and every error answer is
 * problem+json with a code.
 */

let rt: TestRuntime;
let seeded: Seeded;
let exceptionId: string;

beforeAll(async () => {
  rt = await startRuntime();
  seeded = await seedTenant(rt);
  exceptionId = await createSampleException(seeded);
}, 60_000);
afterAll(() => rt?.stop());

const expectClearAnswer = (r: Reply, what: string) => {
  expect(r.status, what).toBeLessThan(500);
  if (r.status >= 400) {
    expect(r.headers.get('content-type'), what).toBe('application/problem+json');
    expect(typeof r.body.code, what).toBe('string');
  }
};

const operations = () =>
  bearerOperations({
    tenant_id: seeded.tenantId,
    exception_id: exceptionId,
    user_id: seeded.members.operator.user_id,
  });

/** A sample body with one field replaced, removed or added: the inputs most likely to slip through. */
const mutated = (sample: Record<string, unknown>) =>
  fc.oneof(
    fc
      .record({ key: fc.constantFrom(...Object.keys(sample)), value: fc.jsonValue() })
      .map(({ key, value }) => ({
        ...sample,
        [key]: value,
      })),
    fc.constantFrom(...Object.keys(sample)).map((key) => {
      const { [key]: _, ...rest } = sample;
      return rest;
    }),
    fc.record({ key: fc.string({ maxLength: 12 }), value: fc.jsonValue() }).map(({ key, value }) => ({
      ...sample,
      [key]: value,
    })),
  );

/**
 * Four operations fuzzed at a time: the handlers wait on the table most of their time, and
 * concurrent callers of different routes are what the service meets anyway.
 */
async function inParallel<T>(items: T[], run: (item: T) => Promise<void>, width = 4) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

describe('random input never reaches a 500', () => {
  it('bodies', async () => {
    const withBody = operations().filter(({ op }) => op.body && op.method !== 'GET');
    expect(withBody.length).toBeGreaterThan(5);
    await inParallel(withBody, async ({ id, op, path }) => {
      const sample = (SAMPLE_BODIES[id] ?? {}) as Record<string, unknown>;
      await fc.assert(
        fc.asyncProperty(
          Object.keys(sample).length ? fc.oneof(mutated(sample), fc.jsonValue()) : fc.jsonValue(),
          async (body) => {
            const r = await seeded.api.call(op.method, path, { token: seeded.adminToken, body });
            expectClearAnswer(r, `${id} ${JSON.stringify(body)}`);
          },
        ),
        { numRuns: 25 },
      );
    });
  }, 120_000);

  it('query strings', async () => {
    const lists = operations().filter(({ op }) => op.method === 'GET' && (op as Operation).query);
    expect(lists.length).toBeGreaterThan(3);
    const param = fc.constantFrom(
      'limit',
      'cursor',
      'status',
      'severity',
      'subject_type',
      'subject_id',
      'channel',
      'document_type',
      'counterparty',
      'assignee_id',
      'x',
    );
    await inParallel(lists, async ({ id, path }) => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(param, fc.string({ maxLength: 40 }), { maxKeys: 3 }),
          async (query) => {
            const qs = new URLSearchParams(query).toString();
            const r = await seeded.api.call('GET', `${path}${qs ? `?${qs}` : ''}`, {
              token: seeded.adminToken,
            });
            expectClearAnswer(r, `${id} ?${qs}`);
          },
        ),
        { numRuns: 25 },
      );
    });
  }, 120_000);

  it('public routes with any method', async () => {
    const publicOps = (Object.values(OPERATIONS) as Operation[]).filter((o) => o.auth === 'public');
    const paths = publicOps.map((o) => o.path);
    // A page for a browser (the OAuth callback) answers its own method with a short HTML page.
    const page = (path: string, method: string) =>
      publicOps.some((o) => o.path === path && o.method === method && o.html);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        async (path, method) => {
          const r = await seeded.api.call(method, path, method === 'GET' ? {} : { raw: '{"a":1}' });
          if (page(path, method)) {
            expect(r.status, `${method} ${path}`).toBeLessThan(500);
            expect(r.headers.get('content-type'), `${method} ${path}`).toMatch(/^text\/html/);
          } else expectClearAnswer(r, `${method} ${path}`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
