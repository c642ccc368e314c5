import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { outbox } from '#shared/table/entities/outbox';
import { startStreamPoller } from '#local/stream-poller';
import { dynamoEndpoint, freshDb } from '#tests/support/db';

/**
 * The local poller after a failed GetRecords (local/stream-poller.ts): the read may have been
 * served and DynamoDB Local does not take the same iterator twice, so the poller takes the shard
 * up again after the last record it read. The Streams API is stubbed to play that engine (the
 * table is real, for DescribeTable): the iterator of the failed read fails for ever after.
 */

const streams = mockClient(DynamoDBStreamsClient);
let stop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await stop?.();
  streams.restore();
});

const insert = (eventId: string, sequence: string) => ({
  eventID: eventId,
  eventName: 'INSERT' as const,
  dynamodb: {
    SequenceNumber: sequence,
    NewImage: marshall({ entity: outbox.entity, event_id: eventId }),
  },
});

describe('local stream poller, after a failed read', () => {
  it('resumes the shard after the last record read instead of retrying the spent iterator', async () => {
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'shard-1' }] } })
      .on(GetShardIteratorCommand, { ShardIteratorType: 'TRIM_HORIZON' })
      .resolves({ ShardIterator: 'it-0' })
      .on(GetShardIteratorCommand, { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: '100' })
      .resolves({ ShardIterator: 'it-2' })
      .on(GetRecordsCommand, { ShardIterator: 'it-0' })
      .resolves({ Records: [insert('e-1', '100')], NextShardIterator: 'it-1' })
      .on(GetRecordsCommand, { ShardIterator: 'it-1' })
      .rejects(new Error('read timed out'))
      .on(GetRecordsCommand, { ShardIterator: 'it-2' })
      .resolves({ Records: [insert('e-2', '101')], NextShardIterator: 'it-3' })
      .on(GetRecordsCommand, { ShardIterator: 'it-3' })
      .resolves({ Records: [], NextShardIterator: 'it-3' });

    const { db } = await freshDb();
    const received: string[] = [];
    const poller = await startStreamPoller({
      endpoint: dynamoEndpoint(),
      tableName: db.tableName,
      context: () => ({}) as Context,
      handler: async (event: DynamoDBStreamEvent) => {
        for (const r of event.Records)
          received.push(String(unmarshall(r.dynamodb!.NewImage as never).event_id));
        return { batchItemFailures: [] };
      },
      pollMs: 5,
    });
    stop = poller.stop;

    const deadline = Date.now() + 10_000;
    while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(received).toEqual(['e-1', 'e-2']);
    // The spent iterator was given up after its one failure, not read again.
    expect(streams.commandCalls(GetRecordsCommand, { ShardIterator: 'it-1' })).toHaveLength(1);
  });
});
