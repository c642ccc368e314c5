import * as z from 'zod/mini';
import { webhookEndpointEditable } from '#shared/table/entities/webhook-endpoint';
import { patchSchema } from './patch';
import { EVENT_TYPE_NAMES } from '#shared/kernel/event-types';
import { named, pageQuery, text, timestamp } from './common';

/**
 * Event subscriptions (docs/api.md, "Event subscriptions"): webhook endpoints, their messages,
 * resend, recover and test; the bounds are the contract's.
 */

export const WEBHOOK_LIMITS = {
  eventTypes: 50,
  endpointsPerTenant: 20,
  description: 500,
  url: 2048,
  /** How far back `recover` reaches, and how long messages are kept. */
  keepDays: 30,
} as const;

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
/** Why an endpoint was disabled: by a person, by a 410 answer, or after 5 days of failures. */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export const WEBHOOK_MESSAGE_STATUSES = ['pending', 'delivered', 'retrying', 'failed'] as const;
export const WebhookMessageStatus = z.enum(WEBHOOK_MESSAGE_STATUSES);

/** A type of the catalog, or `*` (every type, also those added later). */
export const SubscribedEventType = named(z.enum(['*', ...EVENT_TYPE_NAMES]), 'WebhookEventType');

const fields = {
  url: text(1, WEBHOOK_LIMITS.url),
  description: z.nullable(text(0, WEBHOOK_LIMITS.description, 'free')),
  event_types: z.array(SubscribedEventType).check(z.minLength(1), z.maxLength(WEBHOOK_LIMITS.eventTypes)),
  enabled: z.boolean(),
};

export const WebhookEndpointCreate = named(
  z.strictObject({
    url: fields.url,
    description: z._default(fields.description, null),
    event_types: fields.event_types,
    enabled: z._default(fields.enabled, true),
  }),
  'WebhookEndpointCreate',
);

/**
 * The fields `webhookEndpointEditable` declares (shared/table/entities/webhook-endpoint.ts), each
 * optional. Re-enabling a disabled endpoint is `{enabled: true}`.
 */
export const WebhookEndpointUpdate = named(
  patchSchema(webhookEndpointEditable, fields),
  'WebhookEndpointUpdate',
);

export const EventTypeListQuery = z.strictObject({});

export const WebhookEndpointListQuery = z.strictObject({ ...pageQuery });
export const WebhookMessageListQuery = z.strictObject({
  status: z.optional(WebhookMessageStatus),
  ...pageQuery,
});

/** `since`: at most 30 days back (422 otherwise, checked against the clock by the use case). */
export const WebhookRecover = named(z.strictObject({ since: timestamp() }), 'WebhookRecover');

export const WebhookEndpointPath = z.object({ tenant_id: text(1, 64), endpoint_id: text(1, 64) });
export const WebhookMessagePath = z.object({
  tenant_id: text(1, 64),
  endpoint_id: text(1, 64),
  message_id: text(1, 64),
});
