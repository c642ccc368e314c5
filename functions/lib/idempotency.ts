import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, ConflictError, ValidationError } from '#shared/kernel/errors';
import { sha256 } from '#shared/kernel/secrets';
import { idempotency } from '#shared/table/entities/idempotency';
import type { Db } from '#functions/adapters/dynamo';
import { type HttpResponse, toProblem } from './problem';

/**
 * `Idempotency-Key` for creating POSTs (docs/api.md section 7), as a small conditional-write
 * record in the service table (not Powertools idempotency: the answer to replay is the HTTP
 * response our error mapper produces, 4xx included, and the scope must be the tenant).
 *
 * 1. Claim `IDEMPOTENCY#<scope>#<operation>#<sha256(key)>` with a conditional Put (in progress,
 *    with the request's fingerprint). Scope is the tenant, or the user on tenant-less routes, so
 *    another tenant's identical key never sees the first answer.
 * 2. Taken: another fingerprint -> 409 conflict; still in progress -> 409 conflict; completed ->
 *    the stored status, headers and body, with `idempotent-replayed: true`.
 * 3. Run; store the answer (2xx and 4xx, which are final); a 5xx or crash deletes the claim so the
 *    client may retry.
 */

const KEY = /^[\x21-\x7e]{1,255}$/;
const RETENTION_SECONDS = 24 * 3600;
const IN_PROGRESS_SECONDS = 60;

export interface IdempotentCall {
  db: Db;
  key: string;
  scope: string;
  operation: string;
  fingerprint: string;
  requestId: string;
}

/** What a route group is given: `idempotently` bound to the table its records live in. */
export type Idempotency = (
  call: Omit<IdempotentCall, 'db'>,
  run: () => Promise<HttpResponse>,
) => Promise<HttpResponse>;

export const idempotencyIn =
  (db: Db): Idempotency =>
  (call, run) =>
    idempotently({ ...call, db }, run);

export async function idempotently(
  call: IdempotentCall,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  if (!KEY.test(call.key))
    throw new ValidationError([
      {
        path: 'Idempotency-Key',
        code: 'invalid_header',
        message: 'must be 1 to 255 printable ASCII characters',
      },
    ]);
  const Key = idempotency.key({ scope: call.scope, operation: call.operation, key_hash: sha256(call.key) });
  const fingerprint = sha256(call.fingerprint);
  const nowSeconds = Math.floor(Date.now() / 1000);
  try {
    await call.db.doc.send(
      new PutCommand({
        TableName: call.db.tableName,
        Item: {
          ...Key,
          entity: idempotency.entity,
          state: 'in_progress',
          fingerprint,
          lease_until: nowSeconds + IN_PROGRESS_SECONDS,
          ttl: nowSeconds + RETENTION_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :now OR (#state = :inp AND lease_until < :now)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inp': 'in_progress' },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    const { Item } = await call.db.doc.send(
      new GetCommand({ TableName: call.db.tableName, Key, ConsistentRead: true }),
    );
    if (!Item || Item.fingerprint !== fingerprint)
      throw new ConflictError('This Idempotency-Key was used with another request body.');
    if (Item.state !== 'completed')
      throw new ConflictError('A request with this Idempotency-Key is still in progress.');
    const stored = Item.response as HttpResponse;
    return { ...stored, headers: { ...stored.headers, 'idempotent-replayed': 'true' } };
  }

  const store = (response: HttpResponse) =>
    call.db.doc.send(
      new PutCommand({
        TableName: call.db.tableName,
        Item: {
          ...Key,
          entity: idempotency.entity,
          state: 'completed',
          fingerprint,
          response,
          ttl: nowSeconds + RETENTION_SECONDS,
        },
      }),
    );
  const release = () => call.db.doc.send(new DeleteCommand({ TableName: call.db.tableName, Key }));

  let response: HttpResponse;
  try {
    response = await run();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) await store(toProblem(err, call.requestId));
    else await release().catch(() => undefined);
    throw err;
  }
  if (response.statusCode < 500) await store(response);
  else await release();
  return response;
}
