import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { toOutboxEvent } from '#functions/adapters/outbox';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { DEMO_CACHE_CONTROL, DEMO_OPERATIONS, DEMO_PAYLOADS } from '#shared/demo/index';
import { DEMO_RESPONSES } from '#shared/demo/responses';
import { demoResponse } from '#shared/demo/served';
import { NOTIFICATION_CHANNELS, type NotificationDeliveryContractDemoRead } from '#shared/demo/schemas';
import { CHANNEL_PROFILES, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { NOTIFICATION_STATUSES } from '#shared/api/schemas/notifications';
import { ALARMS, dlqName, EVENT_KINDS, LOG_EVENTS, METRICS, QUEUES } from '#shared/kernel/names';

/** docs/api.md section 8: the eight demo paths. */
const DEMO_PATHS = [
  '/demo/public',
  '/demo/notification-delivery',
  '/demo/business-notification-channels',
  '/demo/connector-certification',
  '/demo/provider-onboarding',
  '/demo/integration-repair',
  '/demo/connector-fixture-replay',
  '/demo/business-scenario-replay',
];

/** GitHub's anchors of a Markdown file's headings. */
const headingSlugs = (markdown: string) =>
  [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, h]) =>
    h!
      .trim()
      .toLowerCase()
      .replace(/[^\w\s-]/g, '')
      .replace(/\s/g, '-'),
  );

const body = (id: keyof typeof DEMO_PAYLOADS) => DEMO_PAYLOADS[id].body as Record<string, unknown>;
const contract = () =>
  DEMO_PAYLOADS['demo.notificationDelivery'].body as z.output<typeof NotificationDeliveryContractDemoRead>;

/** Every object in a JSON tree, with its path. */
function* objects(value: unknown, path = '$'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* objects(v, `${path}[${i}]`);
  else if (value !== null && typeof value === 'object') {
    yield [path, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* objects(v, `${path}.${k}`);
  }
}

/** The records of docs/api.md section 8 inside a payload: every object carrying `command`. */
const records = (value: unknown) => [...objects(value)].filter(([, o]) => 'command' in o);

describe('demo operations', () => {
  it('are exactly the eight public GET paths of docs/api.md section 8', () => {
    const ops = Object.values(DEMO_OPERATIONS) as Operation[];
    expect(ops.map((o) => o.path).sort()).toEqual([...DEMO_PATHS].sort());
    for (const op of ops) {
      expect(op).toMatchObject({ group: 'public', method: 'GET', auth: 'public', status: 200 });
      expect(op.permission).toBeUndefined();
      expect(op.body).toBeUndefined();
    }
  });

  it("are part of the manifest the router dispatches from; their response records are the demo's", () => {
    for (const [id, op] of Object.entries(DEMO_OPERATIONS)) {
      expect((OPERATIONS as Record<string, Operation>)[id]).toEqual(op);
      expect(DEMO_RESPONSES[id as keyof typeof DEMO_RESPONSES]).toBeDefined();
    }
  });
});

describe('demo records', () => {
  it.each(Object.entries(DEMO_PAYLOADS))('%s validates against its strict schema', (id, { path, body }) => {
    const op = DEMO_OPERATIONS[id as keyof typeof DEMO_OPERATIONS];
    const response = DEMO_RESPONSES[id as keyof typeof DEMO_RESPONSES];
    expect(op.path).toBe(path);
    expect(response.safeParse(body).success).toBe(true);
    expect(response.safeParse({ ...(body as object), extra: 1 }).success).toBe(false);
  });

  it.each(Object.entries(DEMO_PAYLOADS))(
    '%s: every record has status, command, api and docs (docs/api.md section 8)',
    (_id, { path, body }) => {
      const found = records(body);
      expect(found[0]?.[0]).toBe('$');
      for (const [where, record] of found) {
        expect(record.status, where).toBe('previewed');
        expect(record.command, where).toMatch(/^curl -s http:\/\/127\.0\.0\.1:3000\/demo\/[a-z-]+$/);
        expect(Object.keys(record.api as object).length, where).toBeGreaterThan(0);
        for (const doc of record.docs as Record<string, string>[]) {
          expect(Object.keys(doc).sort(), where).toEqual(['path', 'title']);
          const [file, anchor] = doc.path!.split('#');
          const url = new URL(`../../../${file}`, import.meta.url);
          expect(existsSync(url), doc.path).toBe(true);
          if (anchor) expect(headingSlugs(readFileSync(url, 'utf8')), doc.path).toContain(anchor);
        }
      }
      expect((body as { command: string }).command.endsWith(path)).toBe(true);
    },
  );

  it.each(Object.entries(DEMO_PAYLOADS))('%s uses camelCase keys only', (_id, { body }) => {
    for (const [where, o] of objects(body)) {
      for (const key of Object.keys(o)) expect(key, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
  });

  it('point only at operations of the manifest', () => {
    const known = new Set(
      Object.values(OPERATIONS as Record<string, Operation>).map((o) => `${o.method} ${o.path}`),
    );
    const refs = Object.values(DEMO_PAYLOADS).flatMap(({ body }) => [
      ...records(body).flatMap(([, r]) => Object.values(r.api as Record<string, string>)),
      ...[...objects(body)].flatMap(([, o]) => (typeof o.api === 'string' ? [o.api] : [])),
    ]);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      if (ref.startsWith('none')) continue;
      const match = /^(GET|POST|PUT|PATCH|DELETE) (\/[^\s?]*)/.exec(ref);
      expect(match, ref).not.toBeNull();
      const [, method, path] = match!;
      expect(known.has(`${method} ${path}`), ref).toBe(true);
    }
  });

  it('name routes through the operations manifest (call() in shared/demo/common.ts), never as written text', () => {
    const route = /['"`](GET|POST|PUT|PATCH|DELETE) \//;
    const files = readdirSync(new URL('../../../shared/demo/', import.meta.url), {
      recursive: true,
      encoding: 'utf8',
    });
    const sources = files.filter((file) => file.endsWith('.ts'));
    // The walkthroughs live in a folder of their own: the check must reach into it.
    expect(sources).toContain('walkthroughs/integration-repair.ts');
    for (const file of sources) {
      const lines = readFileSync(new URL(`../../../shared/demo/${file}`, import.meta.url), 'utf8').split(
        '\n',
      );
      const code = lines.filter((line) => !/^\s*(\/\*\*|\*|\/\/)/.test(line));
      expect([file, code.filter((line) => route.test(line))]).toEqual([file, []]);
    }
  });

  it('/demo/public embeds the notification delivery contract as notificationDelivery', () => {
    expect(body('demo.public').notificationDelivery).toEqual(contract());
  });

  it('/demo/public links every other demo path', () => {
    const linked = (body('demo.public').sections as { path: string }[]).map((s) => s.path);
    expect(linked.sort()).toEqual(DEMO_PATHS.filter((p) => p !== '/demo/public').sort());
  });
});

describe('notification delivery contract', () => {
  it('profiles exactly the five channels, each on the queue its direction names', () => {
    const channels = contract().channels;
    expect(channels.map((c) => c.channel)).toEqual([...NOTIFICATION_CHANNELS]);
    for (const c of channels) {
      expect(c.queue).toBe(c.direction === 'internal' ? QUEUES.internal : QUEUES.external);
      expect(c.deadLetterQueue).toBe(`${c.queue}-dlq`);
      expect(c.deadLetterQueue).toBe(dlqName(CHANNEL_PROFILES[c.channel].queue));
      expect(c.maxBodyChars).toBe(CHANNEL_PROFILES[c.channel].maxBodyChars);
    }
    expect(channels.find((c) => c.channel === 'in_app')?.direction).toBe('internal');
  });

  it('names the outbox event kind and both worker queues with their dead-letter queues', () => {
    const c = contract();
    expect(c.outboxEvent.kind).toBe(EVENT_KINDS.notificationDeliveryRequested);
    // The contract lists exactly the fields the relay reads back from an outbox item.
    const relayed = toOutboxEvent({
      event_id: 'e',
      kind: 'k',
      tenant_id: 't',
      idempotency_key: 'i',
      occurred_at: 'o',
    });
    expect(c.outboxEvent.envelope).toEqual(Object.keys(relayed));
    expect(c.queues.map((q) => [q.name, q.deadLetterQueue])).toEqual(
      Object.values(QUEUES).map((q) => [q, dlqName(q)]),
    );
    expect(c.deadLetters.map((d) => d.deadLetterQueue)).toEqual(Object.values(QUEUES).map(dlqName));
    for (const q of c.queues) expect(q.maxAttempts).toBe(DELIVERY_MAX_ATTEMPTS);
  });

  it('gates every external channel and no internal one', () => {
    const gates = contract().providerGates;
    for (const g of gates) {
      const external = CHANNEL_PROFILES[g.channel].direction === 'external';
      expect(g.gate === 'none', g.channel).toBe(!external);
    }
    expect(gates.map((g) => g.channel)).toEqual([...NOTIFICATION_CHANNELS]);
  });

  it('routes retries, dead letters and gate closures to the notification statuses of the contract', () => {
    const statuses = contract().retryRouting.map((r) => r.status.split(' ')[0]);
    for (const s of ['delivered', 'retrying', 'dead_lettered', 'gated']) expect(statuses).toContain(s);
  });

  it('names every notification status the API stores, the held ones with their stage', () => {
    const c = contract();
    const named = [...c.deliveryPath.map((s) => s.resultStatus), ...c.retryRouting.map((r) => r.status)].join(
      ' ',
    );
    for (const s of NOTIFICATION_STATUSES) expect(named, s).toMatch(new RegExp(`\\b${s}\\b`));
    const held = c.deliveryPath.find((s) => s.stage === 'Preferences, dedupe and digest');
    expect(held?.resultStatus.split(', ').sort()).toEqual(['digesting', 'scheduled', 'suppressed']);
  });

  it('lists the review path from review item to decision', () => {
    const apis = contract().reviewPath.map((r) => r.api);
    expect(apis.some((a) => a.startsWith('GET /tenants/{tenant_id}/review-items'))).toBe(true);
    expect(
      apis.filter((a) => a.startsWith('POST /tenants/{tenant_id}/review-items/{review_item_id}/decision')),
    ).toHaveLength(2);
  });

  it('reads every metric, log event and alarm name from shared/kernel/names.ts and covers the delivery path', () => {
    const c = contract();
    const metrics = c.metrics.map((m) => m.name);
    const logs = c.logEvents.map((l) => l.event);
    const alarms = c.alarms.map((a) => a.name);
    expect(Object.values(METRICS)).toEqual(expect.arrayContaining(metrics));
    expect(Object.values(LOG_EVENTS)).toEqual(expect.arrayContaining(logs));
    expect(Object.values(ALARMS)).toEqual(expect.arrayContaining(alarms));
    const deliveryMetrics = Object.values(METRICS).filter((m) =>
      /^(Notification|Outbox|Relay|Sweeper|ReviewItem|Worker)/.test(m),
    );
    expect([...metrics].sort()).toEqual([...deliveryMetrics].sort());
    const deliveryLogs = Object.values(LOG_EVENTS).filter((e) =>
      /^(notification|outbox|review_item|worker)\./.test(e),
    );
    expect([...logs].sort()).toEqual([...deliveryLogs].sort());
    for (const a of [ALARMS.dlqNotEmpty, ALARMS.queueOldestMessageAge, ALARMS.outboxRelayLag])
      expect(alarms).toContain(a);
    for (const a of c.alarms) expect(a.runbook).toBe(`runbooks/${a.name}.md`);
  });
});

describe('demoResponse', () => {
  it('answers each demo operation with the JSON text of the body the code builds (generated/demo-payloads-brotli.ts is up to date), a strong SHA-256 ETag and Cache-Control', () => {
    const tags = new Set<string>();
    for (const [id, { body }] of Object.entries(DEMO_PAYLOADS)) {
      const r = demoResponse(id)!;
      expect(r.json, `${id}: run npm run build:demo`).toBe(JSON.stringify(body));
      const digest = createHash('sha256').update(r.json).digest('base64url');
      expect(r.etag).toBe(`"${digest}"`);
      expect(r.cacheControl).toBe(DEMO_CACHE_CONTROL);
      tags.add(r.etag);
    }
    expect(tags.size).toBe(DEMO_PATHS.length);
    expect(DEMO_CACHE_CONTROL).toMatch(/^public, max-age=\d+/);
  });

  it('answers nothing for other operations', () => {
    expect(demoResponse('public.health')).toBeUndefined();
    expect(demoResponse('demo.unknown')).toBeUndefined();
  });
});
