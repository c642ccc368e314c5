import type { Clock } from '#shared/kernel/ids';
import { derivedId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { DocumentStore } from '#shared/domain/documents/ports';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { canBecomeOverdue } from './arming';
import type { DocumentDueStore, OccurrenceResult, Timer } from './ports';

export interface DocumentDueDeps {
  documents: Pick<DocumentStore, 'get'>;
  documentDue: DocumentDueStore;
  clock: Clock;
}

/**
 * A `document_due` firing (docs/api.md section 9.7): the invoice is re-read and becomes overdue
 * only if it is still open with a `due_on` (a paid or voided invoice's timer is stale). The
 * occurrence's audit event id derives from the document and its `due_on`, so a redelivered or
 * redriven firing writes nothing twice.
 */
export async function fireDocumentDue(deps: DocumentDueDeps, timer: Timer): Promise<OccurrenceResult> {
  const doc = await deps.documents.get(timer.tenant_id, timer.subject_id);
  if (!doc || !canBecomeOverdue(doc)) return 'stale';
  const dueOn = doc.due_on!;
  const audit = {
    ...auditEvent(deps.clock, {
      tenant_id: doc.tenant_id,
      event_type: 'document.overdue',
      actor_id: null,
      entity_type: 'document',
      entity_id: doc.id,
      summary: `${doc.document_type} ${doc.number} due ${dueOn}`,
      metadata: { due_on: dueOn, due_at: timer.due_at },
    }),
    id: derivedId(timer.due_at, 'document.overdue', doc.tenant_id, doc.id, dueOn),
  };
  return deps.documentDue.recordOverdue(
    { tenant_id: doc.tenant_id, id: doc.id, due_on: dueOn },
    audit,
    workflowEventRecorded(deps.clock, 'document.overdue', doc),
  );
}
