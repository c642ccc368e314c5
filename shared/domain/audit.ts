import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';

export interface AuditEvent {
  id: string;
  tenant_id: string;
  event_type: string;
  actor_id: string | null;
  entity_type: string | null;
  entity_id: string | null;
  summary: string | null;
  metadata_json: string | null;
  created_at: string;
}

/**
 * Identity events (sessions) belong to no tenant; they are kept under this id, which no tenant
 * can take (tenant ids start with a letter or digit).
 */
export const PLATFORM_AUDIT_TENANT = '_platform';

const SECRET_KEY = /pass(word)?|secret|token|authori[sz]ation|api[_-]?key|credential|signature/i;

/** Audit metadata never holds a password, token or secret value (docs/api.md section 5). */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v)]),
    );
  }
  return value;
}

export interface AuditInput {
  tenant_id: string;
  event_type: `${string}.${string}`;
  actor_id: string | null;
  entity_type: string;
  entity_id: string;
  summary: string;
  metadata?: Record<string, unknown>;
}

export const auditEvent = (clock: Clock, input: AuditInput): AuditEvent => ({
  id: newId(),
  tenant_id: input.tenant_id,
  event_type: input.event_type,
  actor_id: input.actor_id,
  entity_type: input.entity_type,
  entity_id: input.entity_id,
  summary: input.summary,
  metadata_json: input.metadata === undefined ? null : JSON.stringify(redact(input.metadata)),
  created_at: clock.now().toISOString(),
});
