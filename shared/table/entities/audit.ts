import { type AccessDoc, entity, record } from '../entity';

/**
 * An audit event, written in the transaction of the change it records. Events of no entity
 * carry neither index; events of an entity type without an id carry only GSI2.
 */
export const audit = /* @__PURE__ */ entity('audit_event', {
  table: { pk: 'TENANT#{tenant_id}#AUDIT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#AUDIT#ENTITY#{entity_type}#{entity_id}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#AUDIT#TYPE#{entity_type}', sk: '{id}' },
});

/** The audit event record, in the order the API returns it (AuditEventRead derives from it). */
export const auditRecord = /* @__PURE__ */ record(audit, {
  id: 'string',
  tenant_id: 'string',
  event_type: 'string',
  actor_id: 'string|null?',
  entity_type: 'string|null?',
  entity_id: 'string|null?',
  summary: 'string|null?',
  metadata_json: 'string|null?',
  created_at: 'datetime|null?',
});

export const access = {
  entity: audit,
  patterns: [
    { name: 'List audit events, newest first' },
    { name: 'List audit events of one entity', index: 'gsi1' },
    { name: 'List audit events of one entity type', index: 'gsi2' },
  ],
} satisfies AccessDoc<typeof audit>;
