import { randomBytes } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { timerPut, timerStore } from '#functions/adapters/timer-store';
import { type Timer, type TimerStore } from '#shared/domain/timers/ports';
import { sweepTimers } from '#shared/domain/timers/use-cases';
import { EVENT_KINDS } from '#shared/kernel/names';
import { ensureTable, localClient, startDynamoLocal } from '#local/dynamodb-local';

/**
 * Timer lag on the local runtime's mechanism (`npx tsx bench/timers.ts [count]`): 10,000 timers
 * due in the same minute, in DynamoDB Local, swept every second with the real clock as the local
 * runtime's scheduler does. Measures, per timer, from its due time to its claim (the firing's
 * outbox write): p50, p99, max; and checks that none was claimed before its due time (by the
 * sweep's clock) and none twice (one firing in the outbox per timer).
 */
const COUNT = Number(process.argv[2] ?? 10_000);
const dynamo = await startDynamoLocal({});
const tableName = 'bench-timers';
await ensureTable(dynamo.endpoint, tableName);
const db: Db = {
  doc: documentClient(localClient(dynamo.endpoint)),
  tableName,
  cursorSecret: randomBytes(32).toString('hex'),
};

// Due in the minute that starts 20 s from now, spread over it.
const minute = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
const timers: Timer[] = Array.from({ length: COUNT }, (_, i) => ({
  id: `task_due:bench-${i}`,
  tenant_id: `tenant-${i % 50}`,
  kind: 'task_due',
  subject_type: 'task',
  subject_id: `bench-${i}`,
  due_at: new Date(minute + Math.floor((i * 60_000) / COUNT)).toISOString(),
}));
const loadStart = Date.now();
for (let i = 0; i < timers.length; i += 25 * 8) {
  await Promise.all(
    Array.from({ length: 8 }, (_, j) => timers.slice(i + j * 25, i + (j + 1) * 25))
      .filter((chunk) => chunk.length > 0)
      .map((chunk) =>
        db.doc.send(
          new BatchWriteCommand({
            RequestItems: {
              [tableName]: chunk.map((t) => ({
                PutRequest: { Item: (timerPut(t) as { Put: { Item: object } }).Put.Item },
              })),
            },
          }),
        ),
      ),
  );
}
console.log(
  `armed ${COUNT} timers in ${Date.now() - loadStart} ms; due from ${new Date(minute).toISOString()}`,
);

const store = timerStore(db);
const claimedAt = new Map<string, number>();
const sweptBy = new Map<string, number>();
let sweepNow = 0;
const recording: TimerStore = {
  ...store,
  claim: async (t, firing) => {
    const result = await store.claim(t, firing);
    if (result === 'fired') {
      claimedAt.set(t.id, Date.now());
      sweptBy.set(t.id, sweepNow);
    }
    return result;
  },
};
const clock = {
  now: () => {
    sweepNow = Date.now();
    return new Date(sweepNow);
  },
};

// The local scheduler: one sweep a second (OPS_LOCAL_TIMER_INTERVAL_MS), never two at once.
const deadline = minute + 60_000 + 120_000;
while (claimedAt.size < COUNT && Date.now() < deadline) {
  const started = Date.now();
  await sweepTimers({ timers: recording, clock });
  await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
}

const due = new Map(timers.map((t) => [t.id, Date.parse(t.due_at)]));
const lags = [...claimedAt].map(([id, at]) => at - due.get(id)!).sort((a, b) => a - b);
const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))]!;
const early = [...sweptBy].filter(([id, now]) => now < due.get(id)!).length;
const firings = new Map<string, number>();
for await (const e of pendingOlderThan(db, '9999'))
  if (e.kind === EVENT_KINDS.timerFired)
    firings.set(String(e.payload.id), (firings.get(String(e.payload.id)) ?? 0) + 1);
const twice = [...firings.values()].filter((n) => n > 1).length;

console.log(
  JSON.stringify(
    {
      timers: COUNT,
      fired: claimedAt.size,
      firings_in_outbox: [...firings.values()].reduce((a, b) => a + b, 0),
      lag_ms: { p50: pct(50), p99: pct(99), max: lags.at(-1) },
      early,
      twice,
    },
    null,
    2,
  ),
);
await dynamo.stop();
