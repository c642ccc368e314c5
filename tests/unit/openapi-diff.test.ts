import { describe, expect, it } from 'vitest';
import { versionRaisedForBreaking } from '../../scripts/lib/api-version';
import { diffOpenApi } from '../../scripts/lib/openapi-diff';

/** One case per rule of the breaking-change classifier (docs/api.md section 12). */

type Json = Record<string, unknown>;

const record = (properties: Json, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** A one-operation document: `POST /things` taking `body`, answering 201 `response`. */
const docOf = (
  o: { body?: Json; response?: Json; params?: Json[]; statuses?: string[]; extraPath?: boolean } = {},
) => {
  const body = o.body ?? record({ name: { type: 'string', maxLength: 50 } });
  const response = o.response ?? { $ref: '#/components/schemas/ThingRead' };
  const responses: Json = {};
  for (const s of o.statuses ?? ['201', '422'])
    responses[s] = s.startsWith('2')
      ? { description: 'ok', content: { 'application/json': { schema: response } } }
      : { description: 'error' };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '0.1.0' },
    paths: {
      '/things': {
        post: {
          operationId: 'things.create',
          parameters: o.params ?? [],
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses,
        },
      },
      ...(o.extraPath ? { '/other': { get: { operationId: 'other.get', responses: {} } } } : {}),
    },
    components: {
      schemas: {
        ThingRead: record({ id: { type: 'string' }, status: { type: 'string', enum: ['open', 'done'] } }),
      },
    },
  };
};

const base = docOf();
const rules = (after: Json, before: Json = base) =>
  diffOpenApi(before, after).map((c) => `${c.breaking ? 'breaking' : 'compatible'} ${c.rule}`);

const withThing = (properties: Json, required?: string[]) => {
  const d = docOf() as Json & { components: { schemas: Json } };
  d.components.schemas.ThingRead = record(properties, required);
  return d;
};

describe('the breaking-change classifier', () => {
  it('finds no change between equal documents', () => {
    expect(rules(docOf())).toEqual([]);
  });

  it('an operation removed is breaking, one added is not', () => {
    expect(rules(base, docOf({ extraPath: true }))).toEqual(['breaking operation-removed']);
    expect(rules(docOf({ extraPath: true }))).toEqual(['compatible operation-added']);
  });

  it('a response field removed, or changed from string to integer, is breaking; a new one is not', () => {
    expect(rules(withThing({ status: { type: 'string', enum: ['open', 'done'] } }))).toEqual([
      'breaking response-field-removed',
    ]);
    expect(
      rules(withThing({ id: { type: 'integer' }, status: { type: 'string', enum: ['open', 'done'] } })),
    ).toEqual(['breaking response-type-changed']);
    expect(
      rules(
        withThing({
          id: { type: 'string' },
          status: { type: 'string', enum: ['open', 'done'] },
          n: { type: 'integer' },
        }),
      ),
    ).toEqual(['compatible response-field-added']);
  });

  it('a response field that may now be null or absent is breaking', () => {
    expect(
      rules(
        withThing({ id: { type: ['string', 'null'] }, status: { type: 'string', enum: ['open', 'done'] } }),
      ),
    ).toEqual(['breaking response-type-changed']);
    expect(
      rules(
        withThing({ id: { type: 'string' }, status: { type: 'string', enum: ['open', 'done'] } }, ['status']),
      ),
    ).toEqual(['breaking response-field-now-optional']);
  });

  it('a response enum widened is breaking, narrowed is not', () => {
    expect(
      rules(
        withThing({ id: { type: 'string' }, status: { type: 'string', enum: ['open', 'done', 'void'] } }),
      ),
    ).toEqual(['breaking response-enum-widened']);
    expect(rules(withThing({ id: { type: 'string' }, status: { type: 'string', enum: ['open'] } }))).toEqual([
      'compatible response-enum-narrowed',
    ]);
  });

  it('a new required request field is breaking, a new optional one is not', () => {
    const body = (extra: Json, required: string[]) =>
      docOf({ body: record({ name: { type: 'string', maxLength: 50 }, ...extra }, ['name', ...required]) });
    expect(rules(body({ due: { type: 'string', maxLength: 10 } }, ['due']))).toEqual([
      'breaking request-field-added-required',
    ]);
    expect(rules(body({ due: { type: 'string', maxLength: 10 } }, []))).toEqual([
      'compatible request-field-added',
    ]);
  });

  it('an optional request field made required, or removed, is breaking', () => {
    const optional = docOf({
      body: record({ name: { type: 'string', maxLength: 50 }, note: { type: 'string' } }, ['name']),
    });
    const required = docOf({
      body: record({ name: { type: 'string', maxLength: 50 }, note: { type: 'string' } }),
    });
    expect(rules(required, optional)).toEqual(['breaking request-field-now-required']);
    expect(rules(base, optional)).toEqual(['breaking request-field-removed']);
  });

  it('a request enum narrowed is breaking, widened is not', () => {
    const e = (values: string[]) => docOf({ body: record({ name: { type: 'string', enum: values } }) });
    expect(rules(e(['a']), e(['a', 'b']))).toEqual(['breaking request-enum-narrowed']);
    expect(rules(e(['a', 'b']), e(['a']))).toEqual(['compatible request-enum-widened']);
  });

  it('a request type narrowed is breaking (a string field that now takes only integers)', () => {
    expect(rules(docOf({ body: record({ name: { type: 'integer', maximum: 5 } }) }))).toContain(
      'breaking request-type-narrowed',
    );
  });

  it('a tighter request bound or a new pattern is breaking, a looser bound is not', () => {
    const s = (schema: Json) => docOf({ body: record({ name: { type: 'string', ...schema } }) });
    expect(rules(s({ maxLength: 40 }))).toEqual(['breaking request-bound-tightened']);
    expect(rules(s({ maxLength: 50, minLength: 2 }))).toEqual(['breaking request-bound-tightened']);
    expect(rules(s({ maxLength: 50, pattern: '^[a-z]+$' }))).toEqual(['breaking request-pattern-changed']);
    expect(rules(s({ maxLength: 60 }))).toEqual(['compatible request-bound-loosened']);
  });

  it('a new required parameter, a parameter made required or removed is breaking; a new optional one is not', () => {
    const p = (required: boolean) => ({
      name: 'x',
      in: 'query',
      required,
      schema: { type: 'string', maxLength: 5 },
    });
    expect(rules(docOf({ params: [p(true)] }))).toEqual(['breaking parameter-added-required']);
    expect(rules(docOf({ params: [p(false)] }))).toEqual(['compatible parameter-added']);
    expect(rules(docOf({ params: [p(true)] }), docOf({ params: [p(false)] }))).toEqual([
      'breaking parameter-now-required',
    ]);
    expect(rules(base, docOf({ params: [p(false)] }))).toEqual(['breaking parameter-removed']);
  });

  it('a success status removed or added is breaking; an error status is not', () => {
    expect(rules(docOf({ statuses: ['200', '422'] }))).toEqual([
      'breaking success-response-removed',
      'breaking success-response-added',
    ]);
    expect(rules(docOf({ statuses: ['201'] }))).toEqual(['compatible error-response-removed']);
    expect(rules(docOf({ statuses: ['201', '422', '409'] }))).toEqual(['compatible error-response-added']);
  });

  it('follows references into components and stops at recursive ones', () => {
    const tree = (leaf: Json) => {
      const d = docOf({ response: { $ref: '#/components/schemas/Node' } }) as Json & {
        components: { schemas: Json };
      };
      d.components.schemas.Node = record({
        v: leaf,
        kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      });
      return d;
    };
    expect(rules(tree({ type: 'string' }), tree({ type: 'string' }))).toEqual([]);
    expect(rules(tree({ type: 'boolean' }), tree({ type: 'string' }))).toEqual([
      'breaking response-type-changed',
    ]);
  });

  it('a breaking change needs the major version raised, the minor one while 0.x', () => {
    expect(versionRaisedForBreaking('0.1.0', '0.2.0')).toBe(true);
    expect(versionRaisedForBreaking('0.1.0', '0.1.1')).toBe(false);
    expect(versionRaisedForBreaking('1.4.0', '2.0.0')).toBe(true);
    expect(versionRaisedForBreaking('1.4.0', '1.5.0')).toBe(false);
  });
});
