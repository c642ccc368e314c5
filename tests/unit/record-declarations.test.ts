import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { readSchema } from '#shared/api/schemas/records';
import { entity, reader, record, storedReader } from '#shared/table/entity';

/**
 * A record is declared once (shared/table/entity.ts `record`): the stores' typed reader and the
 * API's read schema derive from it. `npx tsc --noEmit -p .` checks the @ts-expect-error lines: a
 * record type that disagrees with its declaration must not compile.
 */
const probe = entity('probe', { table: { pk: 'PROBE#{tenant_id}', sk: '{id}' } });
const probeRecord = record(probe, {
  id: 'string',
  tenant_id: 'string',
  status: 'enum',
  note: 'string|null',
  seen_at: 'datetime|null?',
  lease: { type: 'string', hidden: true },
  score: { type: 'int', derived: true },
});

interface Probe {
  id: string;
  tenant_id: string;
  status: 'open' | 'closed';
  note: string | null;
  seen_at?: string | null;
}

describe('the typed reader', () => {
  it('copies the declared fields, a missing one as null, and nothing else', () => {
    const read = reader<Probe>()(probeRecord);
    const item = {
      pk: 'PROBE#t',
      sk: 'p1',
      entity: 'probe',
      id: 'p1',
      tenant_id: 't',
      status: 'open',
      lease: 'x',
    };
    expect(read(item)).toEqual({ id: 'p1', tenant_id: 't', status: 'open', note: null, seen_at: null });
    expect(Object.keys(read(item))).toEqual(['id', 'tenant_id', 'status', 'note', 'seen_at']);
  });

  it('reads the hidden attributes too when asked for the stored record', () => {
    const read = storedReader<Probe & { lease: string }>()(probeRecord);
    expect(read({ id: 'p1', tenant_id: 't', status: 'open', lease: 'x' })).toMatchObject({ lease: 'x' });
  });

  it('does not compile for a record type that disagrees with the declaration', () => {
    // @ts-expect-error a field the declaration lacks (pick would drop it silently)
    reader<Probe & { owner_id: string }>()(probeRecord);
    // @ts-expect-error a declared field the record type lacks
    reader<Omit<Probe, 'note'>>()(probeRecord);
    // @ts-expect-error a field of another type than declared
    reader<Omit<Probe, 'note'> & { note: number }>()(probeRecord);
    // @ts-expect-error a hidden attribute is no field of the read record
    reader<Probe & { lease: string }>()(probeRecord);
    expect(true).toBe(true);
  });
});

describe('the read schema derived from a declaration', () => {
  const Status = z.enum(['open', 'closed']);

  it('lists the declared fields in order, derived ones in, hidden ones out, with their modifiers', () => {
    const schema = readSchema(probeRecord, { status: Status });
    expect(Object.keys(schema.shape)).toEqual(['id', 'tenant_id', 'status', 'note', 'seen_at', 'score']);
    expect(z.toJSONSchema(schema)).toMatchObject({
      required: ['id', 'tenant_id', 'status', 'note', 'score'],
      properties: {
        note: { type: ['string', 'null'] },
        status: { enum: ['open', 'closed'] },
        score: { type: 'integer' },
      },
    });
    expect(schema.shape.status).toBe(Status);
  });

  it('needs a schema for an enum or json attribute', () => {
    // @ts-expect-error status is an enum: its values come from the API's schema
    expect(() => readSchema(probeRecord, {})).toThrow('status: an enum attribute needs its schema');
  });
});
