import { beforeAll, describe, expect, it } from 'vitest';
import { operationName, recordCalls, type WireCall } from '../../../bench/lib/capture';
import { capacityOf, floorCalls, type Handler } from '../../../bench/lib/measure';
import { replay } from '../../../bench/lib/replay';
import { writeFloor } from '../../../bench/lib/units';
import { apiEvent, authorizerEvent, context, keyRoutes } from '../../../bench/lib/requests';
import { copyTable, type Fixture, lambdaEnv, seed } from '../../../bench/lib/scenario';
import { DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '#infra/config';
import { ensureTable, localClient } from '#local/dynamodb-local';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';

/**
 * The deterministic budgets of docs/performance.md: DynamoDB round trips per request and the
 * request units they consume. Calls are recorded at the HTTP level (X-Amz-Target), units by
 * replaying the identical requests against an identical table with ReturnConsumedCapacity, which
 * DynamoDB Local reports.
 */

/** Round trips per key route, in order. Change status reads once (the response and the audit
 * need the record) and writes once, conditionally on the status it read: race-safe, no extra read. */
const EXPECTED_CALLS: Record<string, string[]> = {
  login: ['BatchGetItem', 'TransactWriteItems'],
  'get exception': ['GetItem'],
  'list exceptions': ['Query'],
  // The Query reads the tenant's escalation policies, to attach the one that fits (docs/api.md, "Time").
  'create exception': ['Query', 'TransactWriteItems'],
  'change status': ['GetItem', 'TransactWriteItems'],
};

/**
 * Request units (read, write) per request, as DynamoDB bills them for these fixtures: each item of
 * a transaction counted on its own (bench/lib/measure.ts floorCalls says why DynamoDB Local's own
 * total undercounts), at the transactional rate (2 units per KB, table and each index entry).
 * Creating an exception: the exception (table + status, subject and type indexes, 8) and its audit
 * event (table + 2 index entries, 6), and the outbox event workflow rules act on (docs/api.md
 * section 9.1), whose entity snapshot is stored deflated so the item stays under 1 KB, in the
 * table and the pending index (2 + 2). A status change writes the same three items, and its
 * status index entry moves (a delete and a put, 2 more). The status index is what answers
 * `?status=open` with a full first page at any size (docs/decisions.md, lists at any size);
 * without it: 16 and 16. The type index (`?type=`) adds 2 to each write (its entry is rewritten
 * with the item, though its key never moves), and its two key attributes on every item take the
 * listed page past a 4 KB read unit: 2.5 read units where they were 2.
 */
const EXPECTED_UNITS: Record<string, { read: number; write: number }> = {
  login: { read: 0.5, write: 10 },
  'get exception': { read: 1, write: 0 },
  'list exceptions': { read: 2.5, write: 0 },
  // The policies' Query reads an empty partition here: DynamoDB Local reports 0 units for it
  // (DynamoDB bills 0.5, the minimum of an eventually consistent read).
  'create exception': { read: 0, write: 18 },
  'change status': { read: 1, write: 20 },
};

let fx: Fixture;
let floorTable: string;
const handlers = new Map<string, Handler>();
const recorder = recordCalls();
const measured = new Map<
  string,
  { calls: WireCall[]; units: { read: number; write: number }; floor: number; status: number }
>();

beforeAll(async () => {
  const endpoint = dynamoEndpoint();
  const table = uniqueTableName('budget');
  floorTable = uniqueTableName('budget-floor');
  await ensureTable(endpoint, table);
  await ensureTable(endpoint, floorTable);
  fx = await seed(endpoint, table, { exceptions: 25, openForChanges: 2 });
  await copyTable(endpoint, table, floorTable);
  Object.assign(process.env, lambdaEnv('budget', endpoint, fx), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  const client = localClient(endpoint);
  for (const route of keyRoutes()) {
    if (!handlers.has(route.group)) {
      const mod = (await import(/* @vite-ignore */ `../../../functions/${route.group}/handler.ts`)) as {
        handler: Handler;
      };
      handlers.set(route.group, mod.handler);
    }
    recorder.take();
    const res = (await handlers.get(route.group)!(apiEvent(route.request(fx, 0)), context(route.group))) as {
      statusCode: number;
    };
    const calls = recorder.take();
    const replayed = floorCalls(calls, fx.tableName, floorTable, true);
    const out = await replay(client, replayed);
    measured.set(route.label, {
      calls,
      units: capacityOf(out, replayed),
      floor: writeFloor(out, replayed),
      status: res.statusCode,
    });
  }
  client.destroy();
}, 60_000);

describe('round trips per request', () => {
  for (const [label, expected] of Object.entries(EXPECTED_CALLS)) {
    it(`${label}: ${expected.join(' + ')}`, () => {
      const m = measured.get(label)!;
      expect(m.status).toBeLessThan(300);
      expect(m.calls.map((c) => operationName(c.target))).toEqual(expected);
    });
  }

  it('a state change is one TransactWriteItems, conditional on the status it read', () => {
    const writes = measured
      .get('change status')!
      .calls.filter((c) => c.target.endsWith('.TransactWriteItems'));
    expect(writes).toHaveLength(1);
    const items = (writes[0]!.input as { TransactItems: { Put?: { ConditionExpression?: string } }[] })
      .TransactItems;
    expect(items[0]!.Put?.ConditionExpression).toContain(':expected');
  });

  it('route handlers never check the session (the cached authorizer did)', () => {
    for (const [label, m] of measured) {
      if (label === 'login') continue; // creates the session; public route, no authorizer
      expect(JSON.stringify(m.calls), label).not.toContain('SESSION#');
    }
    expect(DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS).toBeGreaterThan(0);
  });

  it('the authorizer, on a cache miss, reads the session and the principal: GetItem + Query', async () => {
    const { handler } = (await import('#functions/authorizer/handler')) as { handler: Handler };
    await handler(authorizerEvent(fx.accessToken)); // first use touches last_used_at
    recorder.take();
    const out = (await handler(authorizerEvent(fx.accessToken))) as { context: { principal: string } };
    expect(out.context.principal).not.toBe('');
    expect(recorder.take().map((c) => operationName(c.target))).toEqual(['GetItem', 'Query']);
  });
});

describe('request units per request (ReturnConsumedCapacity)', () => {
  for (const [label, expected] of Object.entries(EXPECTED_UNITS)) {
    it(`${label}: ${expected.read} RCU, ${expected.write} WCU`, () => {
      expect(measured.get(label)!.units).toEqual(expected);
    });
  }
});

/**
 * The write units the contract itself requires (each item a transaction writes and each of its
 * index entries at 2 units, bench/lib/units.ts), per writing route, and the budget of issue 28:
 * measured at most 1.25x that floor.
 */
const EXPECTED_FLOORS: Record<string, number> = {
  login: 10,
  'create exception': 18,
  'change status': 18,
};

describe('write units against the floor the contract sets', () => {
  for (const [label, floor] of Object.entries(EXPECTED_FLOORS)) {
    it(`${label}: floor ${floor} WCU, measured at most 1.25x`, () => {
      const m = measured.get(label)!;
      expect(m.floor).toBe(floor);
      expect(m.units.write).toBeLessThanOrEqual(1.25 * m.floor);
    });
  }
});
