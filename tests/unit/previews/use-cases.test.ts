import { describe, expect, it } from 'vitest';
import { canonicalJson } from '#shared/domain/previews/digest';
import type { PreviewData, PreviewReader } from '#shared/domain/previews/ports';
import {
  previewBriefing,
  previewDetection,
  previewEscalation,
  previewIntakePipeline,
} from '#shared/domain/previews/use-cases';
import { data, doc, exception, notification, NOW, task, TENANT } from './records';

/** The port over records in memory: the use cases' own logic, apart from any store. */
const readerOf = (d: PreviewData): PreviewReader => ({
  exceptions: async () => structuredClone(d.exceptions),
  documents: async () => structuredClone(d.documents),
  tasks: async () => structuredClone(d.tasks),
  notifications: async () => structuredClone(d.notifications),
});
const depsOf = (d: PreviewData, now = NOW) => ({ reader: readerOf(d), clock: { now: () => now } });

const tenant = data({
  exceptions: [exception({ id: 'e1' })],
  documents: [doc({ id: 'inv-1', due_on: '2026-03-01' })],
  tasks: [task({ id: 't1' })],
  notifications: [notification({ id: 'n1' })],
});
const briefingRequest = { role: 'operator' as const, include_resolved: false, limit: 20 };
const detectionRequest = { rule_set: 'payment_reconciliation' as const, limit: 50 };

describe('canonical encoding', () => {
  it('is the same whatever the key order, and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":null,"z":1}]},"b":1}',
    );
  });
});

describe('shared fields and the digest', () => {
  it('every result carries the shared fields, side_effects none and a sha-256 digest', async () => {
    const r = await previewBriefing(depsOf(tenant), TENANT, briefingRequest);
    expect(r).toMatchObject({
      tenant_id: TENANT,
      generated_at: NOW.toISOString(),
      subject_type: null,
      subject_id: null,
      side_effects: 'none',
      api: { self: `POST /tenants/${TENANT}/previews/briefing` },
    });
    expect(r.preview_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.evidence.slice(0, 4)).toEqual([
      { source: 'exceptions', records_read: 1 },
      { source: 'tasks', records_read: 1 },
      { source: 'documents', records_read: 1 },
      { source: 'notifications', records_read: 1 },
    ]);
    const intake = await previewIntakePipeline(depsOf(tenant), TENANT, {
      events: [{ source: 'bank_feed', event_type: 'payment.received', external_id: 'x', payload: {} }],
      include_notification_drafts: true,
      role: 'operator',
    });
    expect(intake).not.toHaveProperty('subject_type');
    expect(intake.side_effects).toBe('none');
  });

  it('the same data, request and clock give the same result; another clock the same digest', async () => {
    const a = await previewBriefing(depsOf(tenant), TENANT, briefingRequest);
    const b = await previewBriefing(depsOf(structuredClone(tenant)), TENANT, { ...briefingRequest });
    expect(b).toEqual(a);
    const later = await previewBriefing(
      depsOf(tenant, new Date(NOW.getTime() + 60_000)),
      TENANT,
      briefingRequest,
    );
    expect(later.preview_digest).toBe(a.preview_digest);
  });

  it('a change to any record read changes the digest; a change to a record not read does not', async () => {
    const base = await previewDetection(depsOf(tenant), TENANT, detectionRequest);
    const changedDoc = structuredClone(tenant);
    changedDoc.documents[0]!.amount = '100.01';
    expect((await previewDetection(depsOf(changedDoc), TENANT, detectionRequest)).preview_digest).not.toBe(
      base.preview_digest,
    );
    const changedException = structuredClone(tenant);
    changedException.exceptions[0]!.updated_at = '2026-03-10T11:00:00.000Z';
    expect(
      (await previewDetection(depsOf(changedException), TENANT, detectionRequest)).preview_digest,
    ).not.toBe(base.preview_digest);
    // Detection reads no tasks and no notifications.
    const changedTask = structuredClone(tenant);
    changedTask.tasks[0]!.title = 'Another title';
    changedTask.notifications[0]!.status = 'delivered';
    expect((await previewDetection(depsOf(changedTask), TENANT, detectionRequest)).preview_digest).toBe(
      base.preview_digest,
    );
    // Escalation reads only exceptions.
    const e1 = await previewEscalation(depsOf(tenant), TENANT, {
      policy: 'exception_triage',
      include_resolved: false,
      limit: 20,
    });
    const e2 = await previewEscalation(depsOf(changedDoc), TENANT, {
      policy: 'exception_triage',
      include_resolved: false,
      limit: 20,
    });
    expect(e2.preview_digest).toBe(e1.preview_digest);
  });

  it('another request changes the digest', async () => {
    const a = await previewDetection(depsOf(tenant), TENANT, detectionRequest);
    const b = await previewDetection(depsOf(tenant), TENANT, { ...detectionRequest, limit: 49 });
    expect(b.preview_digest).not.toBe(a.preview_digest);
  });
});
