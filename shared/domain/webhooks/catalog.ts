import { EVENT_TYPE_NAMES, SUBSCRIBABLE_EVENTS } from '#shared/kernel/event-types';
import { EVENT_DATA_JSON_SCHEMAS } from './event-types.gen';

/**
 * `GET /event-types` (docs/api.md, "Event subscriptions"): every type an endpoint may subscribe
 * to, from the declarations (shared/kernel/event-types.ts), each with the JSON Schema of its `data`.
 */
export const listEventTypes = () => ({
  items: EVENT_TYPE_NAMES.map((type) => {
    const row = SUBSCRIBABLE_EVENTS[type];
    return { type, description: row.description, schema: EVENT_DATA_JSON_SCHEMAS[row.data] };
  }),
});
