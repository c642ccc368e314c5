import { dbFor } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { tableConfig } from '#functions/config';
import { activeBackground } from '#local/background';
import { QUEUES } from '#shared/kernel/names';
import { until } from './wait';

/**
 * The in-process runtime's background has nothing left to do: no outbox event waits for the relay,
 * and neither queue holds a message (visible, in flight or delayed). An e2e test that asserts what
 * the background did NOT do awaits this, instead of sleeping "long enough": the relay publishes an
 * event before it marks it relayed, and a worker writes what its message causes (with any outbox
 * event of its own) before the message leaves the queue, so there is no moment between the two
 * where work is under way and neither shows it.
 *
 * A timer already due is work too, though neither shows it: the runtime's interval fires it within
 * a second, so an e2e test whose setup arms one (an open invoice past its due date arms a
 * document_due timer) would otherwise see its writes land after idle() returned. Once both are
 * quiet, a sweep runs now (queued behind any sweep under way); idle() returns only when it fires
 * nothing and the outbox and queues are still quiet after it.
 */
export async function idle(ms = 25_000): Promise<void> {
  const background = activeBackground();
  if (!background) throw new Error('idle() needs the in-process runtime (tests/support/runtime.ts)');
  const db = dbFor(tableConfig());
  const pending = async (): Promise<string | undefined> => {
    for await (const e of pendingOlderThan(db, '9999')) return `outbox event ${e.kind} ${e.event_id}`;
    for (const name of [QUEUES.internal, QUEUES.external]) {
      const size = background.queues.queues.get(name)?.size ?? 0;
      if (size > 0) return `${size} message(s) on ${name}`;
    }
    return undefined;
  };
  const dueTimers = async (): Promise<string | undefined> => {
    const { fired } = await background.sweepTimers();
    return fired > 0 ? `${fired} due timer(s) just fired` : undefined;
  };
  // The sweep only once nothing else is pending (it is a query, not worth every 25 ms), and the
  // rest checked again after it: the interval's sweep it queued behind may have fired a timer.
  const busy = async () => (await pending()) ?? (await dueTimers()) ?? (await pending());
  let last: string | undefined;
  await until(
    async () => {
      last = await busy();
      return last === undefined ? true : undefined;
    },
    () => `the relay and the workers to be idle (last: ${last})`,
    ms,
  );
}
