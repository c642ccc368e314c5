import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Notification } from '#shared/domain/notifications/ports';
import type { PreviewData } from '#shared/domain/previews/ports';
import type { Task } from '#shared/domain/tasks/ports';

/** Records as the stores read them back, for the previews' pure computations. */

export const NOW = new Date('2026-03-10T12:00:00.000Z');
export const TENANT = 'acme';

export const exception = (over: Partial<BusinessException> & { id: string }): BusinessException => ({
  tenant_id: TENANT,
  exception_type: 'invoice.overdue',
  severity: 'warning',
  status: 'open',
  subject_type: 'invoice',
  subject_id: 'INV-1',
  title: `Exception ${over.id}`,
  summary: 'Something needs a look',
  impact_json: '{}',
  evidence_json: '{}',
  observation_ids: [],
  detected_at: '2026-03-10T10:00:00.000Z',
  created_at: '2026-03-10T10:00:00.000Z',
  updated_at: '2026-03-10T10:00:00.000Z',
  resolved_at: null,
  escalation: null,
  ...over,
});

export const doc = (over: Partial<BusinessDocument> & { id: string }): BusinessDocument => ({
  tenant_id: TENANT,
  document_type: 'invoice',
  number: over.id.toUpperCase(),
  counterparty: 'Globex Ltd',
  currency: 'EUR',
  amount: '100.00',
  issued_on: '2026-02-01',
  due_on: null,
  external_refs: {},
  lines: [],
  applies_to: null,
  status: 'open',
  created_at: '2026-02-01T09:00:00.000Z',
  updated_at: '2026-02-01T09:00:00.000Z',
  ...over,
});

export const task = (over: Partial<Task> & { id: string }): Task => ({
  tenant_id: TENANT,
  title: `Task ${over.id}`,
  description: null,
  assignee_role: null,
  assignee_id: null,
  due_at: null,
  subject_type: null,
  subject_id: null,
  status: 'open',
  source_rule_id: null,
  created_at: '2026-03-09T12:00:00.000Z',
  updated_at: '2026-03-09T12:00:00.000Z',
  completed_at: null,
  ...over,
});

export const notification = (over: Partial<Notification> & { id: string }): Notification =>
  ({
    tenant_id: TENANT,
    channel: 'email',
    recipient: 'ops@example.test',
    subject: null,
    body: 'Hello',
    metadata_json: '{}',
    status: 'queued',
    policy_reasons: [],
    idempotency_key: `notification:${over.id}`,
    attempts: [],
    review_item_id: null,
    created_by: 'u1',
    created_at: '2026-03-10T08:00:00.000Z',
    updated_at: '2026-03-10T08:00:00.000Z',
    queued_at: null,
    delivered_at: null,
    ...over,
  }) as Notification;

export const data = (over: Partial<PreviewData> = {}): PreviewData => ({
  exceptions: [],
  documents: [],
  tasks: [],
  notifications: [],
  ...over,
});

export const api = (p: string) => p.replace('{tenant_id}', TENANT);
