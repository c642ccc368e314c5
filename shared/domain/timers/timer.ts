import type { TIMER_KINDS } from '#shared/api/schemas/timers';

/**
 * The timer record, apart from the timer ports (./ports.ts): the concerns that arm timers in their
 * own transactions (integrations, notifications...) name it without importing the ports, which
 * name theirs in turn.
 */

export type TimerKind = (typeof TIMER_KINDS)[number];

/**
 * A pending timer. Its id is `<kind>:<subject_id>`: one timer per kind and subject, so arming it
 * again replaces it. `due_at` is `toISOString()` text (the due-time index orders by it).
 */
export interface Timer {
  id: string;
  tenant_id: string;
  kind: TimerKind;
  subject_type: string;
  subject_id: string;
  due_at: string;
  rule_id?: string | null;
  policy_id?: string | null;
  level?: number | null;
}
