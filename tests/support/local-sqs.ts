import { type QueueUrls, sqsClient } from '#functions/adapters/queue';
import { LOCAL_AWS_ENV } from '#local/dynamodb-local';
import type { LocalQueues } from '#local/queues';

/** The functions' SQS client (`sqsClient`) aimed at the in-process queues, knowing the URLs given. */
export const localSqsClient = (queues: LocalQueues, urls: Partial<QueueUrls> = {}) =>
  sqsClient({
    internal: '',
    external: '',
    internalDlq: '',
    externalDlq: '',
    ...urls,
    client: {
      endpoint: queues.endpoint,
      region: LOCAL_AWS_ENV.AWS_REGION,
      credentials: {
        accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
        secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
      },
    },
  });
