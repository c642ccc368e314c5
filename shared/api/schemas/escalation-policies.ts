import * as z from 'zod/mini';
import { escalationPolicyEditable } from '#shared/table/entities/escalation-policy';
import { patchSchema } from './patch';
import { Role } from './auth';
import { named, pageQuery, text } from './common';
import { EXCEPTION_TYPE_PATTERN, ExceptionSeverity } from './exceptions';
import { NotificationChannel } from './notifications';

/**
 * Escalation policies (docs/api.md, "Escalation policies"): who is told, level by level, while
 * an exception stays open; the bounds are the contract's.
 */

export const ESCALATION_LIMITS = {
  levels: 5,
  targets: 5,
  exceptionTypes: 20,
  afterMinutes: 10_080,
  repeat: 3,
  ackTimeoutMinutes: 10_080,
  priority: 1000,
} as const;

const RECIPIENT_KINDS = ['recipient', 'recipient_user_id', 'role'] as const;

/** Exactly one of `recipient` (an address), `recipient_user_id` (a member) or `role` (every member with it). */
export const NotifyTarget = named(
  z
    .strictObject({
      channel: NotificationChannel,
      recipient: z.optional(text(1, 2048)),
      recipient_user_id: z.optional(text(1, 64)),
      role: z.optional(Role),
    })
    .check(
      z.superRefine((t, ctx) => {
        const named = RECIPIENT_KINDS.filter((k) => t[k] !== undefined);
        if (named.length === 1) return;
        ctx.issues.push({
          code: 'custom',
          path: named.length ? [named[1]!] : [],
          message:
            named.length === 0
              ? 'a target names one of recipient, recipient_user_id or role'
              : `a target names exactly one of recipient, recipient_user_id or role, not ${named.join(' and ')}`,
          params: { code: named.length === 0 ? 'target_required' : 'one_target_only' },
          input: t,
        });
      }),
    ),
  'EscalationNotifyTarget',
);

export const EscalationLevel = named(
  z.strictObject({
    after_minutes: z.int().check(z.minimum(1), z.maximum(ESCALATION_LIMITS.afterMinutes)),
    notify: z.array(NotifyTarget).check(z.minLength(1), z.maxLength(ESCALATION_LIMITS.targets)),
  }),
  'EscalationLevel',
);

/** An empty match (or an absent list) fits every exception. */
export const EscalationMatch = named(
  z.strictObject({
    severities: z.optional(z.array(ExceptionSeverity).check(z.maxLength(3))),
    exception_types: z.optional(
      z
        .array(
          z
            .string()
            .check(
              z.minLength(2),
              z.maxLength(128),
              z.regex(EXCEPTION_TYPE_PATTERN, 'must match ^[a-z0-9][a-z0-9_.-]*$'),
            ),
        )
        .check(z.maxLength(ESCALATION_LIMITS.exceptionTypes)),
    ),
  }),
  'EscalationMatch',
);

const fields = {
  name: text(2, 120, 'name'),
  priority: z.int().check(z.minimum(0), z.maximum(ESCALATION_LIMITS.priority)),
  match: EscalationMatch,
  levels: z.array(EscalationLevel).check(z.minLength(1), z.maxLength(ESCALATION_LIMITS.levels)),
  repeat: z.int().check(z.minimum(0), z.maximum(ESCALATION_LIMITS.repeat)),
  ack_timeout_minutes: z.nullable(
    z.int().check(z.minimum(1), z.maximum(ESCALATION_LIMITS.ackTimeoutMinutes)),
  ),
  enabled: z.boolean(),
};

export const EscalationPolicyCreate = named(
  z.strictObject({
    name: fields.name,
    priority: z._default(fields.priority, 100),
    match: z._default(fields.match, {}),
    levels: fields.levels,
    repeat: z._default(fields.repeat, 0),
    ack_timeout_minutes: z._default(fields.ack_timeout_minutes, null),
    enabled: z._default(fields.enabled, true),
  }),
  'EscalationPolicyCreate',
);

/**
 * The fields `escalationPolicyEditable` declares (shared/table/entities/escalation-policy.ts),
 * each optional, and the version the change was made against (409 conflict when it is not the
 * current one).
 */
export const EscalationPolicyUpdate = named(
  patchSchema(escalationPolicyEditable, fields),
  'EscalationPolicyUpdate',
);

export const EscalationPolicyListQuery = z.strictObject({ ...pageQuery });

export const EscalationPolicyPath = z.object({ tenant_id: text(1, 64), policy_id: text(1, 64) });
