import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { outbox } from '#shared/table/entities/outbox';
import { clientOptions } from '#functions/adapters/client-options';
import type { SdkDeadlines } from '#functions/config';
import { LOCAL_AWS_ENV, localClient, localClientSettings } from './dynamodb-local';

/**
 * The relay's event source on one machine: polls DynamoDB Local's real stream (Streams API),
 * applies the same filter as the cloud mapping (INSERTs of `entity = outbox`), and hands the
 * Lambda DynamoDBStreamEvent shape to the same handler. Failed records (`batchItemFailures`) are
 * retried from the first failed sequence number, a bounded number of times, as the cloud
 * mapping does; after that the sweeper is the safety net. It reads again at once while the stream
 * has records and sleeps `pollMs` only when it is idle.
 */

export type RelayHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<{ batchItemFailures: { itemIdentifier: string }[] } | undefined>;

const MAX_RETRIES = 3;

type Image = Record<string, unknown>;

/**
 * The Streams client deserialises an empty map attribute (`{M: {}}` on the wire) to a bare `{}`,
 * which names no type: `unmarshall` refuses it and the relay would fail the whole batch. Lambda's
 * event carries `{M: {}}`, so the poller restores it, at any depth.
 */
const restoreValue = (value: unknown): unknown => {
  if (!value || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length === 0) return { M: {} };
  if (v.M && typeof v.M === 'object') return { M: restoreImage(v.M as Image) };
  if (Array.isArray(v.L)) return { L: v.L.map(restoreValue) };
  return v;
};
const restoreImage = (image: Image | undefined): Image | undefined =>
  image && Object.fromEntries(Object.entries(image).map(([k, v]) => [k, restoreValue(v)]));

export async function startStreamPoller(options: {
  endpoint: string;
  tableName: string;
  handler: RelayHandler;
  context: () => Context;
  pollMs?: number;
  deadlines?: Partial<SdkDeadlines>;
}): Promise<{ stop(): Promise<void> }> {
  const pollMs = options.pollMs ?? 25;
  const ddb = localClient(options.endpoint);
  // The deployed functions' deadlines: a hung stream read fails and is polled again, as a hung
  // table call does in a function.
  const streams = new DynamoDBStreamsClient(
    clientOptions({
      ...localClientSettings(options.endpoint),
      ...(options.deadlines ? { deadlines: options.deadlines } : {}),
    }),
  );
  const table = await ddb.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);

  const iterators = new Map<string, string | null>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastDescribe = 0;
  let shardClosed = false;
  let running: Promise<void> = Promise.resolve();

  const toLambda = (r: _Record): DynamoDBRecord => ({
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: LOCAL_AWS_ENV.AWS_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(r.dynamodb as DynamoDBRecord['dynamodb']),
      NewImage: restoreImage(r.dynamodb?.NewImage) as never,
      OldImage: restoreImage(r.dynamodb?.OldImage) as never,
      ApproximateCreationDateTime: r.dynamodb?.ApproximateCreationDateTime
        ? Math.floor(new Date(r.dynamodb.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
    },
  });

  const matches = (r: DynamoDBRecord) =>
    r.eventName === 'INSERT' && r.dynamodb?.NewImage?.entity?.S === outbox.entity;

  const deliver = async (records: DynamoDBRecord[]) => {
    let pending = records;
    for (let attempt = 0; pending.length && attempt <= MAX_RETRIES; attempt++) {
      const out = await options.handler({ Records: pending }, options.context());
      const failed = out?.batchItemFailures ?? [];
      if (failed.length === 0) return;
      const first = pending.findIndex((r) =>
        failed.some((f) => f.itemIdentifier === r.dynamodb?.SequenceNumber),
      );
      pending = first < 0 ? [] : pending.slice(first);
    }
  };

  /** The last sequence number read per shard, to take a shard up again after a failed read. */
  const lastRead = new Map<string, string>();
  const iteratorOf = async (shardId: string) => {
    const after = lastRead.get(shardId);
    const it = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    iterators.set(shardId, it.ShardIterator ?? null);
  };

  const refreshShards = async () => {
    const out = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of out.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      await iteratorOf(shard.ShardId);
    }
  };

  /**
   * A failed GetRecords (a deadline passed, the engine busy) may have been served, and the SDK's
   * retry of it sent the same iterator again, which DynamoDB Local does not take twice: reusing it
   * would fail every later pass and the shard's records would never arrive. The shard is taken up
   * again after the last record read, as Lambda's mapping resumes from its checkpoint.
   */
  const readShard = async (shardId: string, iterator: string) => {
    try {
      return await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
    } catch (err) {
      await iteratorOf(shardId).catch(() => iterators.set(shardId, iterator));
      throw err;
    }
  };

  /**
   * One pass over the open shards; true when any shard had records, so the loop reads again at
   * once instead of sleeping while work waits (the cloud mapping polls continuously too). A
   * closed shard (no next iterator) sends the next pass to DescribeStream for its child.
   */
  const poll = async (): Promise<boolean> => {
    if (shardClosed || Date.now() - lastDescribe > 1000) {
      shardClosed = false;
      lastDescribe = Date.now();
      await refreshShards();
    }
    let busy = false;
    for (const [shardId, iterator] of iterators) {
      if (!iterator || stopped) continue;
      const out = await readShard(shardId, iterator);
      iterators.set(shardId, out.NextShardIterator ?? null);
      const last = out.Records?.at(-1)?.dynamodb?.SequenceNumber;
      if (last) lastRead.set(shardId, last);
      if (!out.NextShardIterator) shardClosed = true;
      if (out.Records?.length) busy = true;
      const records = out.Records?.map(toLambda).filter(matches) ?? [];
      if (records.length) await deliver(records);
    }
    return busy;
  };

  const loop = () => {
    if (stopped) return;
    running = poll()
      .catch((err) => {
        if (!stopped && !process.env.OPS_LOCAL_QUIET) console.error('stream poller error', err);
        return false;
      })
      .then((busy) => {
        if (!stopped) timer = setTimeout(loop, busy ? 0 : pollMs);
      });
  };
  await refreshShards();
  lastDescribe = Date.now();
  loop();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      streams.destroy();
      ddb.destroy();
    },
  };
}
