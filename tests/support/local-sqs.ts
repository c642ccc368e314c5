import { type QueueUrls, sqsClient } from '#functions/adapters/queue';
import { localClientSettings } from '#local/dynamodb-local';
import type { LocalQueues } from '#local/queues';

/** The functions' SQS client (`sqsClient`) aimed at the in-process queues, knowing the URLs given. */
export const localSqsClient = (queues: LocalQueues, urls: Partial<QueueUrls> = {}) =>
  sqsClient({
    internal: '',
    external: '',
    internalDlq: '',
    externalDlq: '',
    ...urls,
    client: localClientSettings(queues.endpoint),
  });
