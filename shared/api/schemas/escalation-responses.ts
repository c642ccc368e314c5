import * as z from 'zod/mini';
import { escalationPolicyRecord } from '#shared/table/entities/escalation-policy';
import { Role } from './auth';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { ExceptionSeverity } from './exceptions';
import { NotificationChannel } from './notifications';
import { readSchema } from './records';

/**
 * The response records of escalation policies, apart from the request schemas for the reason of
 * responses.ts: only the OpenAPI document and the domain's types use them.
 */

export const EscalationPolicyRead = named(
  readSchema(escalationPolicyRecord, {
    match: z.object({
      severities: z.optional(z.array(ExceptionSeverity)),
      exception_types: z.optional(z.array(z.string())),
    }),
    levels: z.array(
      z.object({
        after_minutes: z.int(),
        notify: z.array(
          z.object({
            channel: NotificationChannel,
            recipient: z.optional(z.string()),
            recipient_user_id: z.optional(z.string()),
            role: z.optional(Role),
          }),
        ),
      }),
    ),
  }),
  'EscalationPolicyRead',
);

export const EscalationPolicyList = named(listOf(EscalationPolicyRead), 'EscalationPolicyList');

/** What an exception's read shows of its escalation: the level that fires next, and when. */
export const ExceptionEscalationRead = named(
  z.object({ policy_id: z.string(), level: z.int(), next_at: DateTime }),
  'ExceptionEscalationRead',
);
