import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCalls } from '../../bench/lib/capture';
import { HEALTH_PROBE_TTL_MS, tableHealth } from '#functions/adapters/table-health';
import { ensureTable, LOCAL_AWS_ENV } from '#local/dynamodb-local';
import { UnavailableError } from '#shared/kernel/errors';
import { healthProbe } from '#shared/table/entities/health-probe';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/** docs/api.md section 1: `/health` is ok while the table answers one cheap read, whose answer stands 2 s. */

let proxy: TcpProxy;
let tableName: string;
const recorder = recordCalls();
beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  tableName = uniqueTableName('health');
  await ensureTable(dynamoEndpoint(), tableName);
});
afterAll(async () => {
  recorder.stop();
  await proxy?.close();
});

const client = () => ({
  endpoint: proxy.url,
  region: LOCAL_AWS_ENV.AWS_REGION,
  credentials: {
    accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
    secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
  },
});

describe('tableHealth', () => {
  it('reads the probe key, keys only, once per 2 s whatever the number of callers', async () => {
    let now = 1_000_000;
    const answers = tableHealth({ tableName, client: client() }, () => now);
    recorder.take();
    await Promise.all([answers(), answers(), answers()]);
    now += HEALTH_PROBE_TTL_MS - 1;
    await answers();
    const calls = recorder.take();
    expect(calls.map((c) => c.target)).toEqual(['DynamoDB_20120810.GetItem']);
    expect(calls[0]!.input).toEqual({
      TableName: tableName,
      Key: { pk: { S: healthProbe.key({}).pk }, sk: { S: healthProbe.key({}).sk } },
      ProjectionExpression: 'pk',
    });
    now += 1;
    await answers();
    expect(recorder.take()).toHaveLength(1);
  });

  it('fails with UnavailableError while the table does not answer, and recovers after 2 s', async () => {
    let now = 2_000_000;
    const answers = tableHealth({ tableName, client: client() }, () => now);
    await proxy.cut();
    try {
      await expect(answers()).rejects.toBeInstanceOf(UnavailableError);
    } finally {
      await proxy.restore();
    }
    await expect(answers()).rejects.toBeInstanceOf(UnavailableError);
    now += HEALTH_PROBE_TTL_MS;
    await expect(answers()).resolves.toBeUndefined();
  });

  it('any failure is 503, not only the SDK\'s "unavailable" ones: a missing table', async () => {
    const answers = tableHealth({ tableName: 'no-such-table', client: client() });
    await expect(answers()).rejects.toBeInstanceOf(UnavailableError);
  });
});
