import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import type { HttpResponse } from '#functions/http/context';
import { type Idempotency, idempotencyWith } from '#functions/http/idempotency';
import { toProblem } from '#functions/http/problem';
import { logger } from '#functions/observability';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { LOG_EVENTS } from '#shared/kernel/names';
import { sha256 } from '#shared/kernel/secrets';
import { idempotency as idempotencyEntity } from '#shared/table/entities/idempotency';
import { localClient } from '#local/dynamodb-local';
import { dynamoEndpoint, freshDb } from '#tests/support/db';

/** The Idempotency-Key algorithm over its DynamoDB records (docs/api.md section 7). */

let db: Db;
let idempotency: Idempotency;
beforeAll(async () => {
  ({ db } = await freshDb());
  idempotency = idempotencyWith(idempotencyStore(db));
});
afterEach(() => vi.restoreAllMocks());

const call = (fingerprint = 'body-1', key: string = randomUUID()) => ({
  key,
  scope: 't1',
  operation: 'things.create',
  fingerprint,
  requestId: 'req-1',
});

/** The error a call rejects with. */
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err as Error,
  );

const created: HttpResponse = { statusCode: 201, headers: { location: '/things/1' }, body: '{"id":"1"}' };

/** A run that counts its calls and answers `answer` (or throws it). */
const runner = (answer: HttpResponse | Error) => {
  const run = async () => {
    run.calls++;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  run.calls = 0;
  return run;
};

describe('Idempotency-Key', () => {
  it('runs once and replays the stored answer, marked as replayed', async () => {
    const c = call();
    const run = runner(created);
    expect(await idempotency(c, run)).toEqual(created);
    expect(await idempotency(c, run)).toEqual({
      ...created,
      headers: { ...created.headers, 'idempotent-replayed': 'true' },
    });
    expect(run.calls).toBe(1);
  });

  it('answers 409 for the same key with another request body', async () => {
    const c = call();
    await idempotency(c, runner(created));
    const err = await rejection(idempotency({ ...c, fingerprint: 'body-2' }, runner(created)));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err?.message).toMatch(/used with another request body/);
  });

  it('answers 409 while the first request is still running', async () => {
    const c = call();
    let finish!: () => void;
    let running!: () => void;
    const claimed = new Promise<void>((r) => (running = r));
    // The first request's use case runs only once its key is claimed: from then on it is in progress.
    const first = idempotency(c, () => {
      running();
      return new Promise<HttpResponse>((r) => (finish = () => r(created)));
    });
    await claimed;
    const err = await rejection(idempotency(c, runner(created)));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err?.message).toMatch(/still in progress/);
    finish();
    expect(await first).toEqual(created);
  });

  it('stores a 4xx as final: the replay is the same problem, without running again', async () => {
    const c = call();
    const run = runner(new NotFoundError());
    await expect(idempotency(c, run)).rejects.toBeInstanceOf(NotFoundError);
    const replay = await idempotency(c, run);
    expect(run.calls).toBe(1);
    expect(replay.statusCode).toBe(404);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(replay.body ?? '{}')).toMatchObject({ code: 'not_found', request_id: 'req-1' });
  });

  it('releases the key after a 5xx answer or a crash, so the client may retry', async () => {
    const c = call();
    const failing = runner({ statusCode: 503, headers: {} });
    expect((await idempotency(c, failing)).statusCode).toBe(503);
    expect((await idempotency(c, runner({ statusCode: 500, headers: {} }))).statusCode).toBe(500);
    await expect(idempotency(c, runner(new AppError(500, 'internal', 'Internal error')))).rejects.toThrow();
    await expect(idempotency(c, runner(new Error('crash')))).rejects.toThrow('crash');
    const run = runner(created);
    expect(await idempotency(c, run)).toEqual(created);
    expect(run.calls).toBe(1);
  });

  it('scopes keys: the same key in another scope runs again', async () => {
    const c = call();
    await idempotency(c, runner(created));
    const other = runner(created);
    expect(await idempotency({ ...c, scope: 't2' }, other)).toEqual(created);
    expect(other.calls).toBe(1);
  });

  it('refuses a key that is not 1 to 255 printable ASCII characters', async () => {
    for (const key of ['', 'with space', 'x'.repeat(256)]) {
      const run = runner(created);
      const err = await rejection(idempotency(call('b', key), run));
      expect(err).toBeInstanceOf(ValidationError);
      expect(run.calls).toBe(0);
      // The client's 422 names the header and what a key may be.
      expect(JSON.parse(toProblem(err!, 'req-1').body ?? '{}').errors).toEqual([
        {
          path: 'Idempotency-Key',
          code: 'invalid_header',
          message: 'must be 1 to 255 printable ASCII characters',
        },
      ]);
    }
    await expect(idempotency(call('b', 'x'.repeat(255)), runner(created))).resolves.toEqual(created);
  });
});

/** A created answer whose body is `record` as the API serialises it. */
const createdWith = (record: unknown): HttpResponse => ({
  statusCode: 201,
  headers: { 'content-type': 'application/json', location: '/things/big' },
  body: JSON.stringify(record),
});

/** `n` random printable ASCII characters: text with the most entropy a JSON body can carry per byte. */
const printable = (n: number) =>
  Array.from(randomBytes(n), (b) => String.fromCharCode(0x21 + (b % 94))).join('');

describe('Idempotency-Key with answers near and past the item limit', () => {
  it('keeps and replays the answer to a 246 KB escape-heavy request (492 KB answered)', async () => {
    // The exception's evidence as stored (`evidence_json`) and then serialised in the answer:
    // every backslash of the request is escaped twice more.
    const evidence = { path: '\\'.repeat(123_000) };
    expect(JSON.stringify({ evidence }).length).toBeGreaterThan(246_000);
    const answer = createdWith({ id: 'big', evidence_json: JSON.stringify(evidence) });
    expect(answer.body!.length).toBeGreaterThan(492_000);
    const c = call();
    const run = runner(answer);
    expect(await idempotency(c, run)).toEqual(answer);
    const replay = await idempotency(c, run);
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(answer.body);
    expect(replay.headers).toEqual({ ...answer.headers, 'idempotent-replayed': 'true' });
    expect(run.calls).toBe(1);
  });

  it('keeps the worst case of a 256 KiB request: high-entropy text, compressed, under the item limit', async () => {
    const evidence = { text: printable(255_000) };
    const answer = createdWith({ id: 'dense', evidence_json: JSON.stringify(evidence) });
    const c = call();
    const run = runner(answer);
    await idempotency(c, run);
    const replay = await idempotency(c, run);
    expect(replay.body).toBe(answer.body);
    expect(run.calls).toBe(1);
    // Measured: what the record holds is gzip, about 83% of the text (6.6 of 8 bits per byte).
    const { Item } = await db.doc.send(
      new GetCommand({
        TableName: db.tableName,
        Key: idempotencyEntity.key({ scope: c.scope, operation: c.operation, key_hash: sha256(c.key) }),
      }),
    );
    const stored = (Item!.response as { body_gzip: Uint8Array }).body_gzip.length;
    console.info(`[idempotency] 256 KiB printable answer: ${answer.body!.length} B, stored ${stored} B`);
    expect(stored).toBeLessThan(240_000);
  });

  it('answers an answer too large even compressed, and refuses a retry rather than running it again', async () => {
    const answer = createdWith({ id: 'huge', blob: randomBytes(450_000).toString('base64') });
    const c = call();
    const run = runner(answer);
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(await idempotency(c, run)).toEqual(answer);
    // The operator sees which answer could not be kept, and how large it was.
    expect(warn).toHaveBeenCalledWith(expect.any(String), {
      event: LOG_EVENTS.idempotencyAnswerNotKept,
      operation: 'things.create',
      status: 201,
      body_bytes: Buffer.byteLength(answer.body!),
    });
    const err = await rejection(idempotency(c, run));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err?.message).toMatch(/succeeded, but its answer was too large to replay/);
    expect(run.calls).toBe(1);
    // Another body under the same key is still the usual conflict.
    const other = await rejection(idempotency({ ...c, fingerprint: 'body-2' }, run));
    expect(other?.message).toMatch(/used with another request body/);
  });

  it('gives the committed answer when the store fails to keep it, and runs nothing twice', async () => {
    // The store's own client, failing only the Put that completes a record (a throttle, an outage).
    const real = documentClient(localClient(dynamoEndpoint()));
    const doc = documentClient(localClient(dynamoEndpoint()));
    mockClient(doc)
      .on(PutCommand)
      .callsFake(async (input: PutCommand['input']) => {
        if (input.Item?.state === 'completed') throw new Error('ProvisionedThroughputExceededException');
        return real.send(new PutCommand(input));
      })
      .on(GetCommand)
      .callsFake((input: GetCommand['input']) => real.send(new GetCommand(input)));
    const failing = idempotencyWith(idempotencyStore({ ...db, doc }));

    const c = call();
    const run = runner(created);
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    expect(await failing(c, run)).toEqual(created);
    // Logged for the operator: the claim stays in progress until its lease ends.
    expect(error).toHaveBeenCalledWith(expect.any(String), {
      event: LOG_EVENTS.idempotencyAnswerNotKept,
      operation: 'things.create',
      status: 201,
      error: expect.objectContaining({ message: 'ProvisionedThroughputExceededException' }),
    });
    const thrown = runner(new NotFoundError());
    await expect(failing(call(), thrown)).rejects.toBeInstanceOf(NotFoundError);
    // The claim is still held: a retry within its lease is refused, not run again.
    const err = await rejection(failing(c, run));
    expect(err?.message).toMatch(/still in progress/);
    expect(run.calls).toBe(1);
  });
});
