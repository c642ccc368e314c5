import { randomBytes } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { inboxStore } from '#functions/adapters/inbox-store';
import { digestStore } from '#functions/adapters/notification-holds';
import { notificationStore } from '#functions/adapters/notification-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { timerStore } from '#functions/adapters/timer-store';
import { timerFireDeps } from '#functions/workers/timers';
import { createNotification } from '#shared/domain/notifications/use-cases';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { newId } from '#shared/kernel/ids';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { storedInboxItem } from '#shared/table/entities/inbox-item';
import { ensureTable, localClient, startDynamoLocal } from '#local/dynamodb-local';

/**
 * Recipients' costs on DynamoDB Local (`npx tsx bench/recipients.ts`; docs/performance.md):
 * 1. a member's inbox list (first page, and `unread=true`) and unread summary with 10 and with
 *    10,000 items in the inbox, 10 of them unread: read units and round trips, which must not
 *    grow with the inbox (each is answered by an index, the summary by the unread one);
 * 2. the write units of a digested notification: the draft that opens a digest, one that joins
 *    it, and the firing (digest message, then each held one moved to `digested`), per held one.
 * Capacity is what DynamoDB Local reports with ReturnConsumedCapacity (a transactional write
 * counts twice, as in DynamoDB).
 */

const dynamo = await startDynamoLocal({});
const tableName = `bench-recipients-${randomBytes(3).toString('hex')}`;
await ensureTable(dynamo.endpoint, tableName);

type Tally = { read: number; write: number; trips: number };
function metered(): { db: Db; tally: Tally } {
  const tally: Tally = { read: 0, write: 0, trips: 0 };
  const doc = documentClient(localClient(dynamo.endpoint));
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const used = [(out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity ?? []].flat();
      const units = (used as { CapacityUnits?: number }[]).reduce(
        (sum, c) => sum + (c.CapacityUnits ?? 0),
        0,
      );
      if (/^(Get|Query|BatchGet|Scan)/.test(context.commandName ?? '')) tally.read += units;
      else tally.write += units;
      tally.trips += 1;
      return out;
    },
    { step: 'initialize', name: 'meter' },
  );
  return { db: { doc, tableName, cursorSecret: randomBytes(32).toString('hex') }, tally };
}
const reset = (t: Tally) => Object.assign(t, { read: 0, write: 0, trips: 0 });

// 1. The inbox at 10 and at 10,000 items.
const loader = metered().db;
const USER = 'bench-member';
for (const size of [10, 10_000]) {
  const tenant = `inbox-${size}-${randomBytes(3).toString('hex')}`;
  const item = (unread: boolean) =>
    storedInboxItem({
      tenant_id: tenant,
      user_id: USER,
      notification_id: newId(),
      subject: 'Subject',
      body: 'Body',
      category: unread ? 'tasks' : 'general',
      priority: 'normal',
      created_at: new Date().toISOString(),
      read_at: unread ? null : new Date().toISOString(),
      read_state: unread ? 'unread' : 'read',
    });
  // The read history first, so the 10 unread ones are the newest.
  const items = [
    ...Array.from({ length: size - 10 }, () => item(false)),
    ...Array.from({ length: 10 }, () => item(true)),
  ];
  for (let i = 0; i < items.length; i += 200)
    await Promise.all(
      Array.from({ length: 8 }, (_, j) => items.slice(i + j * 25, i + (j + 1) * 25))
        .filter((c) => c.length)
        .map((c) =>
          loader.doc.send(
            new BatchWriteCommand({
              RequestItems: { [tableName]: c.map((Item) => ({ PutRequest: { Item } })) },
            }),
          ),
        ),
    );
  const { db, tally } = metered();
  const inbox = inboxStore(db);
  const owner = { tenant_id: tenant, user_id: USER };
  const page = { limit: 20 };
  for (const [name, run] of [
    ['inbox list', () => inbox.list(owner, {}, page)],
    ['inbox?unread=true', () => inbox.list(owner, { unread: true }, page)],
    ['inbox summary', () => inbox.unreadByCategory(owner)],
  ] as const) {
    reset(tally);
    const out = await run();
    const n = 'items' in (out as object) ? (out as { items: unknown[] }).items.length : JSON.stringify(out);
    console.log(`${name} at ${size} items: ${tally.read} RCU, ${tally.trips} round trips (${n})`);
  }
}

// 2. The write units of a digested notification.
const N = 10;
const tenant = `digest-${randomBytes(3).toString('hex')}`;
await loader.doc.send(
  new BatchWriteCommand({
    RequestItems: {
      [tableName]: [
        {
          PutRequest: {
            Item: adapterConnection.item({
              tenant_id: tenant,
              adapter_key: 'sms',
              status: 'active',
              connection_id: 'c',
            }),
          },
        },
      ],
    },
  }),
);
let at = Date.parse('2031-05-01T08:00:00.000Z');
const clock: Clock = { now: () => new Date(at) };
const { db, tally } = metered();
const deps = { notifications: notificationStore(db), digests: digestStore(db), clock, allowLoopback: false };
const actor = {
  user_id: 'bench',
  token_id: '',
  email: '',
  display_name: 'bench',
  platform_roles: [],
  memberships: {},
};
const draft = (i: number) =>
  createNotification(deps, actor, tenant, {
    channel: 'sms',
    recipient: '+4915112345678',
    body: `Stock low on item ${i}`,
    digest: { key: 'stock', window_minutes: 15 },
  });
reset(tally);
await draft(0);
console.log(`digest: the draft that opens it: ${tally.write} WCU, ${tally.read} RCU`);
reset(tally);
await draft(1);
console.log(`digest: a draft that joins it: ${tally.write} WCU, ${tally.read} RCU`);
for (let i = 2; i < N; i++) await draft(i);
at += 15 * 60_000;
await sweepTimers({ timers: timerStore(db), clock });
reset(tally);
for await (const e of pendingOlderThan(db, '9999'))
  if (e.kind === EVENT_KINDS.timerFired && e.tenant_id === tenant)
    await fireTimer(timerFireDeps(db, clock), e);
console.log(
  `digest: the firing for ${N} held: ${tally.write} WCU (${(tally.write / N).toFixed(1)} per held one), ${tally.read} RCU`,
);
await dynamo.stop();
