import { randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCalls } from '../../bench/lib/capture';
import { cpuOverheadOf, overheadOf } from '../../bench/lib/measure';
import { prepareFloor, sendFloor, warmSide } from '../../bench/lib/wire';

/**
 * The warm floor (issue 39, item 4): the least work that sends a handler's wire requests again,
 * on the handler's own kept-alive agent; and the check that calls a floor above its handler a
 * measurement error instead of an overhead.
 */

describe('the overhead above the floor', () => {
  const floor = [1, 1.1, 0.9, 1, 1.2, 1.05];

  it('is the median of the pairs’ differences when the floor is below its handler', () => {
    const o = overheadOf(
      floor.map((f) => f + 0.5),
      floor,
    );
    expect(o.floorError).toBeNull();
    expect(o.overheadP50).toBeCloseTo(0.5, 6);
    expect(o.ratio.ratio).toBeGreaterThan(1);
  });

  it('is no number but a measurement error when the floor is slower than its handler', () => {
    // As the SDK replay measured: every route "faster" than its floor (ratios 0.57 to 0.80).
    const o = overheadOf(
      floor.map((f) => f * 0.7),
      floor,
    );
    expect(o.overheadP50).toBeNull();
    expect(o.floorError).toMatch(/^measurement error: the floor .* is not below its handler/);
  });

  it('is read the same way in CPU time, with both medians', () => {
    const o = cpuOverheadOf(
      floor.map((f) => f + 0.25),
      floor,
    );
    expect(o.handlerP50).toBeCloseTo(1.275, 6);
    expect(o.floorP50).toBeCloseTo(1.025, 6);
    expect(o.overheadP50).toBeCloseTo(0.25, 6);
    expect(cpuOverheadOf(floor, floor).floorError).not.toBeNull();
  });

  it('is a measurement error too when the floor takes as long as the handler', () => {
    const o = overheadOf(floor, floor);
    expect(o.overheadP50).toBeNull();
    expect(o.floorError).not.toBeNull();
  });
});

interface Seen {
  body: string;
  target: string | undefined;
  port: number | undefined;
}

describe('the floor sender', () => {
  let server: Server;
  let port: number;
  const seen: Seen[] = [];
  let refuse = false;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          body: Buffer.concat(chunks).toString('utf8'),
          target: req.headers['x-amz-target'] as string | undefined,
          port: req.socket.remotePort,
        });
        res.writeHead(refuse ? 400 : 200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(refuse ? '{"__type":"ValidationException"}' : '{"ConsumedCapacity":{"CapacityUnits":1}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A stand-in for a handler's SDK client: one JSON-protocol request on its own kept-alive agent. */
  const client = (agent: Agent, target: string, input: unknown) => () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/',
          headers: { 'x-amz-target': target, 'content-type': 'application/x-amz-json-1.0' },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(input));
    });

  it('sends the handler’s request again, to the same table, on the handler’s own socket', async () => {
    seen.length = 0;
    const agent = new Agent({ keepAlive: true });
    const recorder = recordCalls();
    try {
      const input = { TableName: 'table-a', Key: { pk: { S: 'T#1' }, sk: { S: 'E#1' } } };
      const side = warmSide<void>(recorder);
      const first = await side(0, client(agent, 'DynamoDB_20120810.GetItem', input));
      expect(first.made.map((c) => c.target)).toEqual(['DynamoDB_20120810.GetItem']);
      expect(first.floorMs).toBeUndefined();
      const second = await side(1, client(agent, 'DynamoDB_20120810.GetItem', input));
      expect(seen).toHaveLength(3);
      expect(seen[1]!.target).toBe('DynamoDB_20120810.GetItem');
      // The same request to the same table (its first send also asks for the units).
      expect(JSON.parse(seen[1]!.body)).toEqual({ ...input, ReturnConsumedCapacity: 'INDEXES' });
      // The same kept-alive connection: no new socket, no handshake the handler did not pay.
      expect(seen[1]!.port).toBe(seen[0]!.port);
      expect(second.floorMs).toBeGreaterThan(0);
      // This process's CPU time of each side, beside the wall clock.
      expect(second.handlerCpuMs).toBeGreaterThan(0);
      expect(second.floorCpuMs).toBeGreaterThan(0);
    } finally {
      recorder.stop();
      agent.destroy();
    }
  });

  it('swaps which side goes first every round, and sends each handler call once, in order', async () => {
    seen.length = 0;
    const agent = new Agent({ keepAlive: true });
    const recorder = recordCalls();
    try {
      const side = warmSide<void>(recorder);
      // Each handler call creates an item under a new id; the floor's copy of it gets another.
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (let i = 0; i < 5; i++)
        await side(
          i,
          client(agent, 'DynamoDB_20120810.PutItem', {
            TableName: 'table-a',
            Item: { pk: { S: `T#1#E#${ids[i]}` }, n: { N: String(i) } },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      const sent = seen.map((r) => JSON.parse(r.body) as { Item: { pk: { S: string }; n: { N: string } } });
      const who = (pk: string) => (ids.some((id) => pk.endsWith(id)) ? 'a' : 'b');
      // Handler (a) and floor (b): a | b a | a b | b a | a b.
      expect(sent.map((r) => `${who(r.Item.pk.S)}${r.Item.n.N}`)).toEqual([
        'a0',
        'b0',
        'a1',
        'a2',
        'b1',
        'b2',
        'a3',
        'a4',
        'b3',
      ]);
    } finally {
      recorder.stop();
      agent.destroy();
    }
  });

  it('gives a transaction a fresh idempotency token of the same size, and reads capacity when asked', async () => {
    seen.length = 0;
    const agent = new Agent({ keepAlive: true });
    const recorder = recordCalls();
    try {
      const token = '5f0c8a4e-2f33-4a44-9d8e-3c1b2a7e9f10';
      const input = {
        TransactItems: [{ Put: { TableName: 'table-a', Item: { pk: { S: 'T#1' } } } }],
        ClientRequestToken: token,
      };
      await client(agent, 'DynamoDB_20120810.TransactWriteItems', input)();
      const requests = prepareFloor(recorder.take(), { withCapacity: true });
      await sendFloor(requests);
      const sent = JSON.parse(seen[1]!.body) as {
        ClientRequestToken: string;
        ReturnConsumedCapacity: string;
      };
      expect(sent.ClientRequestToken).not.toBe(token);
      expect(sent.ClientRequestToken).toHaveLength(token.length);
      expect(sent.ReturnConsumedCapacity).toBe('INDEXES');
    } finally {
      recorder.stop();
      agent.destroy();
    }
  });

  it('writes fresh keys of the same length where the handler created items, and changes the twin of an item it changed', async () => {
    seen.length = 0;
    const agent = new Agent({ keepAlive: true });
    const recorder = recordCalls();
    try {
      const created = randomUUID();
      const audit = randomUUID();
      const token = 'jhrexotmpxLRcAviGkmusiHUXkC96qW0kylysTPL1Uo';
      const changed = randomUUID();
      const twin = randomUUID();
      const user = randomUUID();
      const put = (pk: string, sk: string, rest: object = {}) => ({
        Put: {
          TableName: 'table-a',
          Item: { pk: { S: pk }, sk: { S: sk }, actor_id: { S: user }, ...rest },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      const input = {
        TransactItems: [
          put('TENANT#t-1#EXCEPTION', created),
          put('TENANT#t-1#AUDIT', audit, { gsi1pk: { S: `TENANT#t-1#AUDIT#ENTITY#exception#${created}` } }),
          put(`SESSION#${token}`, 'SESSION'),
          {
            Put: {
              TableName: 'table-a',
              Item: { pk: { S: 'TENANT#t-1#EXCEPTION' }, sk: { S: changed }, status: { S: 'acknowledged' } },
              ConditionExpression: '#status = :expected',
            },
          },
        ],
      };
      await client(agent, 'DynamoDB_20120810.GetItem', {
        TableName: 'table-a',
        Key: { sk: { S: changed } },
      })();
      await client(agent, 'DynamoDB_20120810.TransactWriteItems', input)();
      const requests = prepareFloor(recorder.take(), { twins: new Map([[changed, twin]]) });
      await sendFloor(requests);
      const [read, write] = seen.slice(2).map((r) => r.body);
      // The same table: the floor pays for the same engine state as the handler.
      expect(write).toContain('"TableName":"table-a"');
      // Not one key the handler created is sent again: each conditional put finds its item absent.
      for (const key of [created, audit, token]) expect(write).not.toContain(key);
      // The existing item it changed is its twin, read and written, so the condition holds there.
      expect(read).toBe(JSON.stringify({ TableName: 'table-a', Key: { sk: { S: twin } } }));
      expect(write).toContain(twin);
      expect(write).not.toContain(changed);
      // Only generated keys move: the actor and the tenant's short id stay.
      expect(write).toContain(user);
      expect(write).toContain('TENANT#t-1#EXCEPTION');
      const sent = JSON.parse(write!) as {
        TransactItems: { Put: { Item: { pk: { S: string }; sk: { S: string }; gsi1pk?: { S: string } } } }[];
      };
      const fresh = sent.TransactItems[0]!.Put.Item.sk.S;
      expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      // One fresh value per key, in every place the key appeared.
      expect(sent.TransactItems[1]!.Put.Item.gsi1pk!.S).toBe(`TENANT#t-1#AUDIT#ENTITY#exception#${fresh}`);
      expect(sent.TransactItems[2]!.Put.Item.pk.S).toMatch(/^SESSION#[A-Za-z0-9_-]{43}$/);
      // The same bytes long as the handler's request: the items written are the same size.
      expect(Buffer.byteLength(write!)).toBe(Buffer.byteLength(seen[1]!.body));
    } finally {
      recorder.stop();
      agent.destroy();
    }
  });

  it('stops when a floor request is refused: it did other work than the handler', async () => {
    const agent = new Agent({ keepAlive: true });
    const recorder = recordCalls();
    try {
      await client(agent, 'DynamoDB_20120810.GetItem', { TableName: 'table-a' })();
      const requests = prepareFloor(recorder.take());
      refuse = true;
      await expect(sendFloor(requests)).rejects.toThrow(/answered 400/);
    } finally {
      refuse = false;
      recorder.stop();
      agent.destroy();
    }
  });
});
