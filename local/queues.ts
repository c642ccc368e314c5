import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { WORKER_MAX_CONCURRENCY } from '#shared/kernel/names';
import { LocalQueue, type Message, NO_GROUP, type QueueOptions } from './local-queue';

/**
 * SQS on one machine: in-process queues with the semantics the workers rely on (visibility
 * timeout, ApproximateReceiveCount, a DLQ after maxReceiveCount receives, redrive,
 * ChangeMessageVisibility, partial batch failure, fair sharing among message groups), behind a loopback endpoint that speaks the
 * few SQS JSON-protocol actions the functions call (SendMessage, SendMessageBatch,
 * ChangeMessageVisibility, and GetQueueAttributes for the metrics route). The SQS client's endpoint setting points the unchanged SDK client at
 * it (local/config.ts; AWS_ENDPOINT_URL_SQS for the bench's bundles).
 *
 * Time is scaled: `msPerSecond` (default 1000) turns SQS seconds into milliseconds, so tests run
 * the same backoff schedule a hundred times faster. One queue's semantics are `local-queue.ts`.
 */

/** A message's group as sent; none is a group of its own, as on an SQS fair queue. */
const groupOf = (id: unknown): string => (typeof id === 'string' ? id : NO_GROUP);

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export type WorkerHandler = (
  event: SQSEvent,
  context: Context,
) => Promise<{ batchItemFailures: { itemIdentifier: string }[] } | undefined>;

export class LocalQueues {
  readonly queues = new Map<string, LocalQueue>();
  private server: Server | undefined;
  private readonly receivers: Promise<void>[] = [];
  private stopped = false;
  endpoint = '';

  constructor(private readonly options: QueueOptions) {}

  /** How many milliseconds a second of visibility delay lasts here. */
  get msPerSecond(): number {
    return this.options.msPerSecond;
  }

  create(name: string, dlqName: string): LocalQueue {
    const dlq = new LocalQueue(dlqName, this.options);
    const queue = new LocalQueue(name, this.options, dlq);
    this.queues.set(dlqName, dlq);
    this.queues.set(name, queue);
    return queue;
  }

  url(name: string): string {
    return `${this.endpoint}/000000000000/${name}`;
  }

  private fromUrl(url: string): LocalQueue {
    const name = url.split('/').pop() ?? '';
    const q = this.queues.get(name);
    if (!q)
      throw Object.assign(new Error(`no queue ${name}`), { type: 'com.amazonaws.sqs#QueueDoesNotExist' });
    return q;
  }

  /** Actions of the SQS JSON protocol (awsJson1_0) that the functions use. */
  private action(target: string, input: Record<string, unknown>): unknown {
    const queue = this.fromUrl(String(input.QueueUrl ?? ''));
    switch (target) {
      case 'SendMessage': {
        const body = String(input.MessageBody);
        return {
          MessageId: queue.send(body, input.MessageAttributes as never, groupOf(input.MessageGroupId)),
          MD5OfMessageBody: md5(body),
        };
      }
      case 'SendMessageBatch': {
        const entries = (input.Entries ?? []) as {
          Id: string;
          MessageBody: string;
          MessageAttributes?: never;
          MessageGroupId?: string;
        }[];
        return {
          Successful: entries.map((e) => ({
            Id: e.Id,
            MessageId: queue.send(e.MessageBody, e.MessageAttributes, groupOf(e.MessageGroupId)),
            MD5OfMessageBody: md5(e.MessageBody),
          })),
          Failed: [],
        };
      }
      case 'GetQueueAttributes': {
        const { visible, inFlight } = queue.depth();
        return {
          Attributes: {
            ApproximateNumberOfMessages: String(visible),
            ApproximateNumberOfMessagesNotVisible: String(inFlight),
          },
        };
      }
      case 'ChangeMessageVisibility':
        if (!queue.changeVisibility(String(input.ReceiptHandle), Number(input.VisibilityTimeout)))
          throw Object.assign(new Error('receipt handle is invalid'), {
            type: 'com.amazonaws.sqs#ReceiptHandleIsInvalid',
          });
        return {};
      default:
        throw Object.assign(new Error(`unsupported action ${target}`), {
          type: 'com.amazonaws.sqs#UnsupportedOperation',
        });
    }
  }

  async listen(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const target = String(req.headers['x-amz-target'] ?? '').replace('AmazonSQS.', '');
      try {
        const out = this.action(target, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(out));
      } catch (err) {
        const e = err as Error & { type?: string };
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(
          JSON.stringify({ __type: e.type ?? 'com.amazonaws.sqs#InvalidParameterValue', message: e.message }),
        );
      }
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.endpoint = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.endpoint;
  }

  /**
   * Consumes `name` like an SQS event source mapping: up to `concurrency` batches of up to 10 in
   * flight at once (the mapping's maximum concurrency), each receiver long-polling (woken by a
   * send, `pollMs` at most otherwise); the worker's `batchItemFailures` stay on the queue (until
   * their visibility times out), the rest are deleted. A handler that throws fails the whole batch.
   */
  consume(
    name: string,
    handler: WorkerHandler,
    context: () => Context,
    options: { pollMs?: number; concurrency?: number } = {},
  ): void {
    const queue = this.queues.get(name)!;
    const pollMs = options.pollMs ?? 20;
    const arn = `arn:aws:sqs:us-east-1:000000000000:${name}`;
    const toRecord = (m: Message): SQSRecord => ({
      messageId: m.id,
      receiptHandle: m.receiptHandle!,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt ?? m.sentAt),
        ...(m.group === NO_GROUP ? {} : { MessageGroupId: m.group }),
      },
      messageAttributes: Object.fromEntries(
        Object.entries(m.attributes).map(([k, v]) => [
          k,
          {
            dataType: v.DataType,
            stringValue: v.StringValue,
            stringListValues: [],
            binaryListValues: [],
          },
        ]),
      ),
      md5OfBody: md5(m.body),
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: 'us-east-1',
    });
    const run = async (batch: Message[]) => {
      const handles = new Map(batch.map((m) => [m.id, m.receiptHandle!]));
      try {
        const out = await handler({ Records: batch.map(toRecord) }, context());
        const failed = new Set((out?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        for (const [id, handle] of handles) if (!failed.has(id)) queue.delete(handle);
      } catch (err) {
        if (!process.env.OPS_LOCAL_QUIET) console.error(`worker for ${name} failed the whole batch`, err);
      }
    };
    const receiver = async () => {
      while (!this.stopped) {
        const batch = queue.receive(10);
        if (batch.length) await run(batch);
        else await queue.waitForMessages(pollMs);
      }
    };
    for (let i = 0; i < (options.concurrency ?? WORKER_MAX_CONCURRENCY); i++) this.receivers.push(receiver());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const q of this.queues.values()) q.wake();
    await Promise.all(this.receivers);
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((r) => this.server!.close(() => r()));
    }
  }
}
