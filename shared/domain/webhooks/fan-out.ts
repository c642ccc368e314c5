import { derivedId } from '#shared/kernel/ids';
import type { Clock } from '#shared/kernel/ids';
import { isSubscribableEventType, SUBSCRIBABLE_EVENTS } from '#shared/kernel/event-types';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_DATA_JSON_SCHEMAS } from './event-types.gen';
import { newMessage, queued } from './messages';
import type { StoredEndpoint, WebhookEndpointStore, WebhookMessageStore } from './ports';

/**
 * The fan-out (docs/api.md, "Event subscriptions"; docs/decisions.md, "Webhook fan-out from the
 * outbox event"): the internal worker turns a change's `workflow.event_recorded` outbox event
 * into one message per active endpoint that subscribes to its type. Each message's id derives
 * from the event and the endpoint, and all of them are written in one transaction, each on the
 * condition that it does not exist: a redelivered event writes nothing twice.
 */

export interface FanOutDeps {
  endpoints: Pick<WebhookEndpointStore, 'all'>;
  messages: Pick<WebhookMessageStore, 'createAll'>;
  clock: Clock;
}

export const subscribes = (e: Pick<StoredEndpoint, 'status' | 'event_types'>, type: string) =>
  e.status === 'active' && (e.event_types as string[]).some((t) => t === '*' || t === type);

/** The fields of the type's read shape only: what the catalog's schema of `data` promises, nothing more. */
function readShape(type: keyof typeof SUBSCRIBABLE_EVENTS, entity: Record<string, unknown>) {
  const schema = EVENT_DATA_JSON_SCHEMAS[SUBSCRIBABLE_EVENTS[type].data] as {
    $ref?: string;
    $defs?: Record<string, { properties?: object }>;
    properties?: object;
  };
  // A named read schema is a `$ref` into `$defs`.
  const named = schema.$ref ? schema.$defs?.[schema.$ref.split('/').pop()!] : undefined;
  const properties = schema.properties ?? named?.properties ?? {};
  return Object.fromEntries(
    Object.keys(properties)
      .filter((k) => k in entity)
      .map((k) => [k, entity[k]]),
  );
}

/** Returns how many messages it wrote (0 for a redelivered event or one nobody subscribes to). */
export async function fanOut(deps: FanOutDeps, event: OutboxEvent): Promise<number> {
  const type = String(event.payload.event_type);
  if (!isSubscribableEventType(type) || type === 'webhook.test') return 0;
  const subscribers = (await deps.endpoints.all(event.tenant_id)).filter((e) => subscribes(e, type));
  if (subscribers.length === 0) return 0;
  const data = readShape(type, JSON.parse(String(event.payload.entity_json)) as Record<string, unknown>);
  const now = deps.clock.now();
  const messages = subscribers.map((e) =>
    queued(
      deps.clock,
      newMessage(
        now,
        e,
        type,
        event.occurred_at,
        data,
        derivedId(event.occurred_at, 'webhook', event.event_id, e.id),
      ),
    ),
  );
  return (await deps.messages.createAll(messages)) === 'written' ? messages.length : 0;
}
