import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { LOCAL_AWS_ENV, localClient } from '#local/dynamodb-local';
import { dynamoEndpoint } from './db';

/**
 * How many records a table's stream holds, read from the start of every shard: a write anywhere
 * in the table adds one, so an unchanged count before and after a request proves it wrote nothing.
 */
export async function streamRecordCount(tableName: string): Promise<number> {
  const endpoint = dynamoEndpoint();
  const table = await localClient(endpoint).send(new DescribeTableCommand({ TableName: tableName }));
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: LOCAL_AWS_ENV.AWS_REGION,
    credentials: {
      accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
      secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
    },
  });
  const streamArn = table.Table!.LatestStreamArn!;
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  let count = 0;
  for (const shard of StreamDescription?.Shards ?? []) {
    let iterator = (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId!,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      )
    ).ShardIterator;
    while (iterator) {
      const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      count += out.Records?.length ?? 0;
      // An open shard answers an empty page at its end, with a next iterator for later records.
      if (!out.Records?.length) break;
      iterator = out.NextShardIterator;
    }
  }
  return count;
}
