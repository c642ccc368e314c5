import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground } from '#local/background';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** `GET /ops/metrics` through the local runtime (docs/api.md section 9.6). */

let rt: TestRuntime;
let seeded: Seeded;

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000' });
  seeded = await seedTenant(rt);
}, 60_000);

afterAll(async () => {
  await rt?.stop();
});

describe('GET /ops/metrics', () => {
  it('answers platform_admin the queues with their DLQs, the outbox backlog and open review items', async () => {
    // A message parked in a DLQ, as after its last receive.
    activeBackground()!.queues.queues.get(dlqName(QUEUES.external))!.send('{}');
    const r = await seeded.api.call('GET', '/ops/metrics', { token: seeded.adminToken });
    expect(r.status).toBe(200);
    expect(Date.now() - Date.parse(r.body.generated_at)).toBeLessThan(60_000);
    expect(r.body.queues).toEqual([
      { name: QUEUES.internal, visible: expect.any(Number), in_flight: expect.any(Number), dlq_depth: 0 },
      { name: QUEUES.external, visible: 0, in_flight: 0, dlq_depth: 1 },
    ]);
    expect(r.body.outbox).toEqual({
      pending: expect.any(Number),
      oldest_age_seconds: r.body.outbox.pending ? expect.any(Number) : null,
    });
    expect(r.body.review_items_open).toEqual({
      notification: 0,
      workflow_action: 0,
      accounting_export: 0,
      integration_issue: 0,
    });
  });

  it('is platform_admin only: 403 for a tenant owner, 401 without a token', async () => {
    const owner = await seeded.api.call('GET', '/ops/metrics', { token: seeded.members.owner.token });
    expect(owner.status).toBe(403);
    expect(owner.headers.get('content-type')).toContain('application/problem+json');
    expect((await seeded.api.call('GET', '/ops/metrics')).status).toBe(401);
  });
});
