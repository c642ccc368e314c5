import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { UnavailableError } from '#shared/kernel/errors';
import { healthProbe } from '#shared/table/entities/health-probe';
import type { TableConfig } from '#functions/config';
import { clientOptions } from './client-options';
import { documentClient } from './dynamo';

/** How long one probe's answer stands: a busy `/health` costs the table one read per 2 s per instance. */
export const HEALTH_PROBE_TTL_MS = 2000;

/**
 * `GET /health`'s check (docs/api.md section 1): whether the table answers a key-only GetItem of
 * the health probe's key. Resolves when it does; otherwise rejects with UnavailableError (503),
 * whatever the cause (an outage, throttling, a missing grant or table), which goes to the log.
 * One answer, success or failure, stands for HEALTH_PROBE_TTL_MS; concurrent callers share it.
 * Needs the table's name only: the public function gets no cursor secret.
 */
export function tableHealth(
  { tableName, client }: Pick<TableConfig, 'tableName' | 'client'>,
  now = Date.now,
) {
  if (!tableName) throw new Error('TABLE_NAME must be set');
  const doc = documentClient(new DynamoDBClient(clientOptions(client)));
  let last: { at: number; answer: Promise<void> } | undefined;
  const probe = async () => {
    try {
      await doc.send(
        new GetCommand({ TableName: tableName, Key: healthProbe.key({}), ProjectionExpression: 'pk' }),
      );
    } catch (err) {
      throw err instanceof UnavailableError ? err : new UnavailableError(err);
    }
  };
  return (): Promise<void> => {
    if (!last || now() - last.at >= HEALTH_PROBE_TTL_MS) last = { at: now(), answer: probe() };
    return last.answer;
  };
}
