import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiEvent, context } from '../../bench/lib/requests';
import { type Fixture, seed } from '../../bench/lib/scenario';
import type { Db } from '#functions/adapters/dynamo';
import { ensureTable } from '#local/dynamodb-local';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';
import { provideTable } from '#tests/support/handler-config';

/**
 * The previews function as deployed (functions/previews/handler.ts): its one table client is the
 * read-only one (docs/api.md section 9.5). The adapter itself is tested in
 * tests/connected/preview-reader.test.ts; here the handler module is loaded as Lambda loads it,
 * the client it hands its reader is captured, and a write sent through that very client fails
 * before it leaves the process. Built without `readOnly(...)`, the write lands and this fails.
 */

type Handler = (event: unknown, ctx: unknown) => Promise<{ statusCode: number; body?: string }>;
let fx: Fixture;
let handler: Handler;
const handed: Db[] = [];
let restoreConfig = () => {};

beforeAll(async () => {
  const tableName = uniqueTableName('previews');
  await ensureTable(dynamoEndpoint(), tableName);
  fx = await seed(dynamoEndpoint(), tableName, { exceptions: 1 });
  vi.doMock('#functions/adapters/preview-reader', async (original) => {
    const real = await original<typeof import('#functions/adapters/preview-reader')>();
    return {
      ...real,
      previewReader: (db: Db) => {
        handed.push(db);
        return real.previewReader(db);
      },
    };
  });
  restoreConfig = await provideTable(fx);
  handler = (await import('#functions/previews/handler')).handler as Handler;
  vi.doUnmock('#functions/adapters/preview-reader');
});
afterAll(() => restoreConfig());

describe('the previews function as deployed', () => {
  it('answers a preview through the client it was built with', async () => {
    expect(handed).toHaveLength(1);
    const event = apiEvent({
      method: 'POST',
      path: `/tenants/${fx.tenantId}/previews/briefing`,
      body: {},
      principal: fx.principal,
    });
    const r = await handler(event, context('previews'));
    expect(r.statusCode).toBe(200);
  });

  it('refuses a write through that client before it reaches the table, and reads as usual', async () => {
    const db = handed[0]!;
    const key = { pk: `TENANT#${fx.tenantId}`, sk: 'PREVIEW#written' };
    const put = await db.doc.send(new PutCommand({ TableName: db.tableName, Item: key })).catch((e) => e);
    // The handler's module graph is its own (vi.resetModules): the class is compared by name.
    expect(put).toMatchObject({
      name: 'ReadOnlyViolation',
      command: expect.stringMatching(/^Put(Item)?Command$/),
    });
    const update = await db.doc
      .send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key,
          UpdateExpression: 'SET x = :x',
          ExpressionAttributeValues: { ':x': 1 },
        }),
      )
      .catch((e) => e);
    expect(update).toMatchObject({
      name: 'ReadOnlyViolation',
      command: expect.stringMatching(/^Update(Item)?Command$/),
    });
    // Nothing reached the table; a read goes through.
    const read = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key }));
    expect(read.Item).toBeUndefined();
  });
});
