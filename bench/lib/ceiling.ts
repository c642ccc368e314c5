import { randomBytes } from 'node:crypto';
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '#local/dynamodb-local';

/**
 * The engine's own transaction rate on this machine, now: what the delivery pipeline's figure is
 * read against (issue 28). DynamoDB Local serves a few dozen TransactWriteItems a second here,
 * and how many depends on what else the machine runs, so a fixed events/s target says more about
 * the machine than about the pipeline. The probe is the pipeline's transactions without the
 * pipeline: `writers` concurrent callers, each sending transactions of 3 puts of about 800 bytes
 * (the size of a notification, its audit event and its outbox item) back to back, for `seconds`,
 * into a table of their own with no stream reader.
 */
export async function transactionCeiling(endpoint: string, writers = 4, seconds = 5): Promise<number> {
  const tableName = `bench-ceiling-${randomBytes(3).toString('hex')}`;
  await ensureTable(endpoint, tableName);
  const client = localClient(endpoint);
  const payload = randomBytes(400).toString('hex');
  const put = (pk: string, sk: string) => ({
    Put: { TableName: tableName, Item: { pk: { S: pk }, sk: { S: sk }, payload: { S: payload } } },
  });
  let sent = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; performance.now() < until; i++) {
          const id = `${w}-${i}`;
          await client.send(
            new TransactWriteItemsCommand({
              TransactItems: [put(`N#${id}`, 'N'), put(`A#${id}`, 'A'), put(`O#${id}`, 'O')],
            }),
          );
          sent++;
        }
      }),
    );
    return sent / ((performance.now() - started) / 1000);
  } finally {
    client.destroy();
  }
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

interface Phase {
  eventsPerSecond: number;
  transactionsPerEvent: number;
}

/**
 * The pipeline's share of the engine's transaction rate: events/s x transactions per event / the
 * rate the probe measured, with the mean of the probes either side of the pipeline (the machine's
 * load moves during the run). Budget on the live phase (writers and pipeline together, each event
 * counted with the transaction that created it): at least 0.8 (issue 28).
 */
export function ceilingShares(before: number, after: number, live: Phase, backlog: Phase) {
  const perSecond = (before + after) / 2;
  const share = (phase: Phase) => round((phase.eventsPerSecond * phase.transactionsPerEvent) / perSecond);
  return {
    transactionsPerSecond: round(perSecond, 1),
    before: round(before, 1),
    after: round(after, 1),
    liveShare: share(live),
    backlogShare: share(backlog),
  };
}
