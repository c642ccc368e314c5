import { type AccessDoc, entity } from '../entity';

/**
 * An audit event, written in the transaction of the change it records. Events of no entity
 * carry neither index; events of an entity type without an id carry only GSI2.
 */
export const audit = /* @__PURE__ */ entity('audit_event', {
  table: { pk: 'TENANT#{tenant_id}#AUDIT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#AUDIT#ENTITY#{entity_type}#{entity_id}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#AUDIT#TYPE#{entity_type}', sk: '{id}' },
});

/** The audit event record the stores read back (AuditEventRead's fields, in order). */
export const AUDIT_FIELDS = [
  'id',
  'tenant_id',
  'event_type',
  'actor_id',
  'entity_type',
  'entity_id',
  'summary',
  'metadata_json',
  'created_at',
] as const;

export const access = {
  entity: audit,
  patterns: [
    { name: 'List audit events, newest first' },
    { name: 'List audit events of one entity', index: 'gsi1' },
    { name: 'List audit events of one entity type', index: 'gsi2' },
  ],
} satisfies AccessDoc<typeof audit>;
