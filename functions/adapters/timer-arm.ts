import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Timer } from '#shared/domain/timers/ports';
import { timer, TIMER_DUE_SHARDS } from '#shared/table/entities/timer';
import type { Db } from './dynamo';
import type { WriteOp } from './transact';

/**
 * Arming and cancelling timers, apart from the sweeper's and the listing's reads (timer-store.ts),
 * so that a function that only arms one (the OAuth callback) bundles this alone.
 */

const shardOf = (id: string): number => {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % TIMER_DUE_SHARDS;
};

export const timerKey = (tenantId: string, id: string) => timer.key({ tenant_id: tenantId, id });

/** Arms a timer (or re-arms it at a new time): the Put that rides in the transaction of the change that arms it. */
export const timerPut = (t: Timer): WriteOp => ({ Put: { Item: timerItem(t) } });

const timerItem = (t: Timer) => timer.item({ ...t }, { ...t, shard: shardOf(t.id) });

/** Cancels a timer, whether or not it is armed. */
export const timerDelete = (tenantId: string, id: string): WriteOp => ({
  Delete: { Key: timerKey(tenantId, id) },
});

/** The op that leaves `id` armed as `wanted`, or cancelled when null. */
export const timerOp = (tenantId: string, id: string, wanted: Timer | null): WriteOp =>
  wanted ? timerPut(wanted) : timerDelete(tenantId, id);

/** Arms (or re-arms) a timer on its own, outside any transaction. */
export async function armTimer(db: Db, t: Timer): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: timerItem(t) }));
}
