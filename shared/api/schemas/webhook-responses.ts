import * as z from 'zod/mini';
import { webhookEndpointRecord } from '#shared/table/entities/webhook-endpoint';
import { webhookMessageRecord } from '#shared/table/entities/webhook-message';
import { FreeForm, listOf, named } from './common';
import { DateTime } from './datetime';
import { readSchema } from './records';
import {
  SubscribedEventType,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_ENDPOINT_STATUSES,
  WebhookMessageStatus,
} from './webhooks';

/**
 * The response records of event subscriptions, apart from the request schemas for the reason of
 * responses.ts: only the OpenAPI document and the domain's types use them.
 */

export const EventTypeRead = named(
  z.object({ type: z.string(), description: z.string(), schema: FreeForm }),
  'EventTypeRead',
);
export const EventTypeList = named(z.object({ items: z.array(EventTypeRead) }), 'EventTypeList');

export const WebhookEndpointRead = named(
  readSchema(webhookEndpointRecord, {
    event_types: z.array(SubscribedEventType),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
    disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS),
  }),
  'WebhookEndpointRead',
);

/** The secret (`whsec_` and the base64 of 32 bytes) appears in the create's answer and the rotation's only. */
const Secret = z.string();

export const WebhookSecretRead = named(z.object({ secret: Secret }), 'WebhookSecretRead');
export const WebhookEndpointCreated = named(
  z.object({ ...WebhookEndpointRead.shape, secret: Secret }),
  'WebhookEndpointCreated',
);
export const WebhookEndpointList = named(listOf(WebhookEndpointRead), 'WebhookEndpointList');

const WebhookAttemptRead = z.object({
  at: DateTime,
  status_code: z.nullable(z.int()),
  duration_ms: z.int(),
  error_code: z.nullable(z.string()),
});

export const WebhookMessageRead = named(
  readSchema(webhookMessageRecord, { status: WebhookMessageStatus, attempts: z.array(WebhookAttemptRead) }),
  'WebhookMessageRead',
);
export const WebhookMessageList = named(listOf(WebhookMessageRead), 'WebhookMessageList');
export const WebhookQueuedRead = named(z.object({ queued: z.int() }), 'WebhookQueuedRead');
export const WebhookTestRead = named(z.object({ message_id: z.string() }), 'WebhookTestRead');
