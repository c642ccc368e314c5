import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiRequest, apiEvent, context } from '../../bench/lib/requests';
import { type Fixture, seed } from '../../bench/lib/scenario';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { ensureTable, localClient } from '#local/dynamodb-local';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';
import { provideTable } from '#tests/support/handler-config';

/**
 * An answer after a commit is the truth (docs/api.md section 7, "An answer after a commit"). The
 * exceptions function as deployed, its table client's transactions faulted with
 * aws-sdk-client-mock (the table is DynamoDB Local, which honours `ClientRequestToken`): the
 * table commits and the answer is lost, as when the SDK's 1.5 s deadline passes just after the
 * commit. The write is sent again with its token and answered as made; an outcome still unknown
 * when the request's budget ends is 503, and a retry with the same `Idempotency-Key` gets the
 * first outcome.
 */

type Reply = { statusCode: number; headers?: Record<string, string>; body?: string };
type Handler = (event: unknown, ctx: unknown) => Promise<Reply>;
let fx: Fixture;
let handler: Handler;
let lost: () => Error;
const handed: Db[] = [];
let restoreConfig = () => {};
const real = documentClient(localClient(dynamoEndpoint()));

beforeAll(async () => {
  const tableName = uniqueTableName('outcome');
  await ensureTable(dynamoEndpoint(), tableName);
  fx = await seed(dynamoEndpoint(), tableName, { exceptions: 1, openForChanges: 2 });
  vi.doMock('#functions/adapters/dynamo', async (original) => {
    const actual = await original<typeof import('#functions/adapters/dynamo')>();
    return {
      ...actual,
      dbFor: (...args: Parameters<typeof actual.dbFor>) => {
        const db = actual.dbFor(...args);
        handed.push(db);
        return db;
      },
    };
  });
  restoreConfig = await provideTable(fx);
  handler = (await import('#functions/exceptions/handler')).handler as Handler;
  vi.doUnmock('#functions/adapters/dynamo');
  // The handler's module graph is its own (vi.resetModules): its error class, as its client's
  // middleware throws it for a timed-out call.
  const { UnavailableError } = await import('#shared/kernel/errors');
  lost = () => new UnavailableError(Object.assign(new Error('Request timed out'), { name: 'TimeoutError' }));
});
afterAll(() => restoreConfig());

let mock: AwsClientStub<DynamoDBDocumentClient> | undefined;
afterEach(() => {
  mock?.restore();
  mock = undefined;
});

/** How a send of a transaction goes: by its token and the how-many-th send of that token it is. */
type Fault = (send: number) => 'commit, answer lost' | 'answer lost' | 'through';

/** The handler's client sends everything to the table; its transactions meet `fault`. */
const faulted = (fault: Fault) => {
  mock = mockClient(handed[0]!.doc);
  for (const C of [GetCommand, PutCommand, UpdateCommand, DeleteCommand, QueryCommand, BatchGetCommand]) {
    const Command = C as unknown as new (input: unknown) => GetCommand;
    mock.on(C as typeof GetCommand).callsFake((input) => real.send(new Command(input)));
  }
  mock.on(BatchWriteCommand).callsFake((input) => real.send(new BatchWriteCommand(input)));
  const sends = new Map<string, number>();
  mock.on(TransactWriteCommand).callsFake(async (input: TransactWriteCommand['input']) => {
    const token = input.ClientRequestToken ?? 'none';
    const n = (sends.get(token) ?? 0) + 1;
    sends.set(token, n);
    const how = fault(n);
    if (how === 'answer lost') throw lost();
    const out = await real.send(new TransactWriteCommand(input));
    if (how === 'commit, answer lost') throw lost();
    return out;
  });
  return sends;
};

/** A route call; `budgetMs` is the function's time left (the write budget is a second less). */
const call = (req: Omit<ApiRequest, 'principal'>, key?: string, budgetMs = 10_000) => {
  const event = apiEvent({ ...req, principal: fx.principal });
  if (key) event.headers['idempotency-key'] = key;
  return handler(event, { ...context('exceptions'), getRemainingTimeInMillis: () => budgetMs });
};
const exceptionBody = (subject: string) => ({
  exception_type: 'invoice.overdue',
  subject_type: 'invoice',
  subject_id: subject,
  title: 'Overdue',
  summary: 'Invoice is overdue',
});
const create = (subject: string, key?: string, budgetMs?: number) =>
  call(
    { method: 'POST', path: `/tenants/${fx.tenantId}/exceptions`, body: exceptionBody(subject) },
    key,
    budgetMs,
  );
/** The exceptions stored for `subject`, read with no fault. */
const storedFor = async (subject: string) => {
  mock?.restore();
  const r = await call({
    method: 'GET',
    path: `/tenants/${fx.tenantId}/exceptions`,
    query: { limit: '100' },
  });
  const items = (JSON.parse(r.body!) as { items: { id: string; subject_id: string }[] }).items;
  return items.filter((e) => e.subject_id === subject);
};

describe('a write committed whose answer was lost', () => {
  it('answers the committed outcome, 201 and 200, not 503', async () => {
    const sends = faulted((n) => (n === 1 ? 'commit, answer lost' : 'through'));
    const subject = `INV-${randomUUID()}`;
    const created = await create(subject, randomUUID());
    expect(created.statusCode).toBe(201);
    // Sent again with the first send's token, once: DynamoDB answered it as committed.
    expect([...sends.values()]).toEqual([2]);
    const id = (JSON.parse(created.body!) as { id: string }).id;

    sends.clear();
    const acknowledged = await call({
      method: 'POST',
      path: `/tenants/${fx.tenantId}/exceptions/${id}/status`,
      body: { status: 'acknowledged' },
    });
    expect(acknowledged.statusCode).toBe(200);
    expect(JSON.parse(acknowledged.body!)).toMatchObject({ id, status: 'acknowledged' });
    expect(await storedFor(subject)).toEqual([expect.objectContaining({ id, status: 'acknowledged' })]);
  });

  it('twenty concurrent acknowledgements of one exception: one 200, nineteen 409, never a 503', async () => {
    faulted((n) => (n === 1 ? 'commit, answer lost' : 'through'));
    const id = fx.openExceptionIds[0]!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call({
          method: 'POST',
          path: `/tenants/${fx.tenantId}/exceptions/${id}/status`,
          body: { status: 'acknowledged' },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
  });

  it('still unknown at the end of the budget: 503, and a retry with the same key gets the first answer', async () => {
    // Committed on the first send; every later answer lost until the table recovers.
    faulted((n) => (n === 1 ? 'commit, answer lost' : 'answer lost'));
    const subject = `INV-${randomUUID()}`;
    const key = randomUUID();
    const first = await create(subject, key, 2_500);
    expect(first.statusCode).toBe(503);
    expect(JSON.parse(first.body!)).toMatchObject({ code: 'unavailable' });
    mock!.restore();
    expect(await storedFor(subject)).toHaveLength(1);

    const again = await create(subject, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    const [stored] = await storedFor(subject);
    expect(JSON.parse(again.body!)).toMatchObject({ id: stored!.id, subject_id: subject });
    // And again: the answer is now the completed one.
    expect((await create(subject, key)).body).toBe(again.body);
    expect(await storedFor(subject)).toHaveLength(1);
  });

  it('never sent at all: 503, and the retry with the same key writes it once', async () => {
    faulted(() => 'answer lost');
    const subject = `INV-${randomUUID()}`;
    const key = randomUUID();
    expect((await create(subject, key, 2_500)).statusCode).toBe(503);
    mock!.restore();
    expect(await storedFor(subject)).toEqual([]);
    const again = await create(subject, key);
    expect(again.statusCode).toBe(201);
    expect(await storedFor(subject)).toHaveLength(1);
  });

  it('without an Idempotency-Key an outcome still unknown is 503, and the write is not answered twice', async () => {
    faulted((n) => (n === 1 ? 'commit, answer lost' : 'answer lost'));
    const subject = `INV-${randomUUID()}`;
    expect((await create(subject, undefined, 2_500)).statusCode).toBe(503);
    expect(await storedFor(subject)).toHaveLength(1);
  });
});
