import * as z from 'zod/mini';
import { listOf, named, pageQuery, text } from './common';
import { DateTime } from './datetime';

/** Timers (docs/api.md, "Time"): what the service will do next on its own. */

export const TIMER_KINDS = [
  'rule_schedule',
  'escalation',
  'ack_timeout',
  'task_due',
  'document_due',
  'hub_schedule',
  'oauth_refresh',
  'export_window',
  'notification_release',
  'notification_digest',
  'webhook_retry',
  'rule_delay',
] as const;
export const TimerKind = z.enum(TIMER_KINDS);

export const TimerListQuery = z.strictObject({
  kind: z.optional(TimerKind),
  subject_type: z.optional(text(1, 64)),
  subject_id: z.optional(text(1, 128)),
  ...pageQuery,
});

export const TimerRead = named(
  z.object({
    id: z.string(),
    kind: TimerKind,
    subject_type: z.string(),
    subject_id: z.string(),
    due_at: DateTime,
    /** Present on a scheduled rule's timer. */
    rule_id: z.optional(z.string()),
    /** Present on an escalation's timers. */
    policy_id: z.optional(z.string()),
    /** The escalation level the timer fires. */
    level: z.optional(z.number()),
  }),
  'TimerRead',
);

export const TimerList = named(listOf(TimerRead), 'TimerList');
