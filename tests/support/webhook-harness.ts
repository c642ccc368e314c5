import { afterAll, beforeAll } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { OutboxEvent } from '#shared/domain/outbox';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from './db';
import { exceptionRecord, principal, tenant } from './fixtures';
import { memorySecrets, receiver, webhookDeps } from './webhooks';

export const WEBHOOK_START = '2031-05-01T09:00:00.000Z';

/**
 * The webhook connected tests' common ground: a fresh table, a settable clock, the deps over
 * them, a loopback receiver (its lifetime the calling file's), and endpoints made as an owner
 * would make them, each secret kept in `shown` for the secret scans.
 */
export function webhookHarness() {
  let at = Date.parse(WEBHOOK_START);
  const clock: Clock & { set(iso: string): void; add(s: number): void } = {
    now: () => new Date(at),
    set: (iso: string) => void (at = Date.parse(iso)),
    add: (s: number) => void (at += s * 1000),
  };
  const h = {
    db: undefined as unknown as Db,
    deps: undefined as unknown as ReturnType<typeof webhookDeps>,
    rx: undefined as unknown as Awaited<ReturnType<typeof receiver>>,
    secrets: memorySecrets(),
    shown: [] as string[],
    clock,
    owner: (t: { id: string }) => principal('owner-1', { [t.id]: 'owner' }),

    async setup(eventTypes: string[] = ['exception.created'], count = 1) {
      const t = tenant();
      const endpoints = [];
      for (let i = 0; i < count; i++) {
        const e = await createEndpoint(h.deps.api, h.owner(t), t.id, {
          url: h.rx.url,
          description: null,
          event_types: eventTypes as never,
          enabled: true,
        });
        h.shown.push(e.secret);
        endpoints.push(e);
      }
      return { t, endpoints };
    },

    /** The pending outbox events of a kind for a tenant, as the relay would publish them. */
    async outboxOf(tenantId: string, kind: string = EVENT_KINDS.webhookDeliveryRequested) {
      const out: OutboxEvent[] = [];
      for await (const e of pendingOlderThan(h.db, '9999'))
        if (e.tenant_id === tenantId && e.kind === kind) out.push(e);
      return out;
    },

    change: (tenantId: string, type: 'exception.created' | 'task.overdue' = 'exception.created') =>
      workflowEventRecorded(clock, type, exceptionRecord(tenantId, {}) as never),

    async oneMessage(eventTypes?: string[]) {
      const { t, endpoints } = await h.setup(eventTypes);
      await fanOut(h.deps.fanOut, h.change(t.id));
      const [event] = await h.outboxOf(t.id);
      return { t, endpoint: endpoints[0]!, event: event! };
    },
  };
  beforeAll(async () => {
    ({ db: h.db } = await freshDb());
    h.deps = webhookDeps(h.db, clock, h.secrets);
    h.rx = await receiver();
  });
  afterAll(() => h.rx.close());
  return h;
}
