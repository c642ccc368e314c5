import { operationName, type WireCall } from './capture';
import { percentile } from './measure';

/** What the delivery part counts and times in a phase (bench/lib/delivery.ts). */

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), max: round(s.at(-1) ?? NaN) };
};

/** SQS requests of a phase: calls per action, and the entries SendMessageBatch carried. */
export const sqsOf = (calls: WireCall[], events: number) => {
  const sqs = calls.filter((c) => c.target.startsWith('AmazonSQS.'));
  const byAction: Record<string, number> = {};
  for (const c of sqs) byAction[operationName(c.target)] = (byAction[operationName(c.target)] ?? 0) + 1;
  const batches = sqs.filter((c) => c.target === 'AmazonSQS.SendMessageBatch');
  const entries = batches.reduce((n, c) => n + ((c.input.Entries as unknown[] | undefined)?.length ?? 0), 0);
  const sends = batches.length + (byAction.SendMessage ?? 0);
  return {
    calls: byAction,
    entriesSent: entries,
    meanEntriesPerBatch: batches.length ? round(entries / batches.length) : null,
    /** Publishing calls (SendMessageBatch + SendMessage) per event relayed. */
    callsPerEvent: events ? round(sends / events, 3) : null,
  };
};

/**
 * DynamoDB requests per event by operation (stream reads apart), for a phase in which no writer
 * runs: then they are the relay's and the worker's alone.
 */
export const dynamoPerEvent = (calls: WireCall[], events: number) => {
  const out: Record<string, number> = {};
  for (const c of calls.filter((x) => x.target.startsWith('DynamoDB_')))
    out[operationName(c.target)] = (out[operationName(c.target)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, round(v / events, 2)]));
};

/** Round-trip p50/p99 per DynamoDB and Streams operation: how long the table kept each caller waiting. */
export const roundTrips = (calls: WireCall[]) => {
  const by = new Map<string, number[]>();
  for (const c of calls) {
    if (c.ms === undefined || c.target.startsWith('AmazonSQS')) continue;
    const name = operationName(c.target);
    by.set(name, [...(by.get(name) ?? []), c.ms]);
  }
  return Object.fromEntries([...by].map(([name, ms]) => [name, { calls: ms.length, ...stats(ms) }]));
};

/** TransactWriteItems per event of a phase: what each event costs the engine's transaction rate. */
export const transactionsPerEvent = (calls: WireCall[], events: number) =>
  round(calls.filter((c) => c.target === 'DynamoDB_20120810.TransactWriteItems').length / events, 2);
