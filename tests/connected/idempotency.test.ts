import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import type { HttpResponse } from '#functions/http/context';
import { type Idempotency, idempotencyWith } from '#functions/http/idempotency';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { freshDb } from '#tests/support/db';

/** The Idempotency-Key algorithm over its DynamoDB records (docs/api.md section 7). */

let db: Db;
let idempotency: Idempotency;
beforeAll(async () => {
  ({ db } = await freshDb());
  idempotency = idempotencyWith(idempotencyStore(db));
});

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
    const first = idempotency(c, () => new Promise<HttpResponse>((r) => (finish = () => r(created))));
    await new Promise((r) => setTimeout(r, 50));
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
      await expect(idempotency(call('b', key), runner(created))).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(idempotency(call('b', 'x'.repeat(255)), runner(created))).resolves.toEqual(created);
  });
});
