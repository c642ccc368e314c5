import * as z from 'zod/mini';
import { EVENT_DATA_SCHEMAS } from '#shared/api/schemas/event-types';
import { type EventDataSchema, EVENT_TYPE_NAMES, SUBSCRIBABLE_EVENTS } from '#shared/kernel/event-types';

/** `format: date-time` says what the long leap-year `pattern` zod adds says; the catalog keeps the format only. */
const lean = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(lean);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => !(k === 'pattern' && o.format === 'date-time'))
      .map(([k, v]) => [k, lean(v)]),
  );
};

/** The JSON Schema of each `data` schema, by its name. */
export const dataSchemas = () =>
  Object.fromEntries(
    Object.entries(EVENT_DATA_SCHEMAS).map(([name, schema]) => [
      name,
      lean(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' })) as Record<string, unknown>,
    ]),
  ) as Record<EventDataSchema, Record<string, unknown>>;

/** The catalog as `GET /event-types` answers it, built from the declarations (the generator and its test). */
export const eventTypeCatalog = () => {
  const schemas = dataSchemas();
  return EVENT_TYPE_NAMES.map((type) => {
    const row = SUBSCRIBABLE_EVENTS[type];
    return { type, description: row.description, schema: schemas[row.data] };
  });
};
