/**
 * Classifies the differences between two OpenAPI 3.1 documents of this API, the last release and
 * the current one, as breaking or compatible for a client generated from the release (docs/api.md
 * section 12). Written here instead of taken from a diff library: the one tried called a response
 * field changing from string to integer compatible. It reads the subset of OpenAPI the builder
 * (shared/api/openapi.ts) writes: `$ref`s to components, `properties`/`required`, `items`,
 * `enum`/`const`, `anyOf`/`oneOf`, `type` (a name or a list) and the usual bounds.
 */

type Json = Record<string, unknown>;
type Side = 'request' | 'response';

export interface Change {
  breaking: boolean;
  rule: string;
  /** Where: `<METHOD> <path>` and a path into the request or response. */
  where: string;
  detail: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

function resolver(doc: Json) {
  const components = asObject(doc.components);
  return (node: unknown): Json => {
    let n = asObject(node);
    for (let i = 0; i < 16 && typeof n.$ref === 'string'; i++) {
      const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(n.$ref) ?? [];
      n = asObject(asObject(components[kind ?? ''])[name ?? '']);
    }
    return n;
  };
}

/** The JSON types a schema admits (`null` included), or undefined when it does not say. */
function types(schema: Json, resolve: (n: unknown) => Json): Set<string> | undefined {
  if (schema.const !== undefined)
    return new Set([
      schema.const === null ? 'null' : typeof schema.const === 'number' ? 'number' : typeof schema.const,
    ]);
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (variants) {
    const out = new Set<string>();
    for (const v of variants) {
      const t = types(resolve(v), resolve);
      if (!t) return undefined;
      for (const x of t) out.add(x);
    }
    return out;
  }
  return undefined;
}

/** `integer` is a kind of `number`: a response integer where a number was is no change for a client. */
const admits = (set: Set<string>, type: string) => set.has(type) || (type === 'integer' && set.has('number'));

const enumOf = (s: Json): unknown[] | undefined =>
  Array.isArray(s.enum) ? (s.enum as unknown[]) : s.const !== undefined ? [s.const] : undefined;

export function diffOpenApi(before: Json, after: Json): Change[] {
  const changes: Change[] = [];
  const rb = resolver(before);
  const ra = resolver(after);
  const add = (breaking: boolean, rule: string, where: string, detail: string) =>
    changes.push({ breaking, rule, where, detail });

  /** Compares two schemas on one side of an operation; `seen` stops at recursive references. */
  const schema = (b0: unknown, a0: unknown, side: Side, where: string, seen: Set<string>) => {
    const refKey = `${asObject(b0).$ref ?? ''}|${asObject(a0).$ref ?? ''}|${side}`;
    if (refKey !== `||${side}`) {
      if (seen.has(refKey)) return;
      seen = new Set(seen).add(refKey);
    }
    const b = rb(b0);
    const a = ra(a0);
    const tb = types(b, rb);
    const ta = types(a, ra);
    if (tb && ta) {
      if (side === 'request') {
        const lost = [...tb].filter((t) => !admits(ta, t));
        if (lost.length > 0)
          add(true, 'request-type-narrowed', where, `no longer accepts ${lost.join(', ')}`);
      } else {
        const gained = [...ta].filter((t) => !admits(tb, t));
        if (gained.length > 0)
          add(
            true,
            'response-type-changed',
            where,
            `may now be ${gained.join(', ')} (was ${[...tb].join(', ')})`,
          );
      }
    }
    const eb = enumOf(b);
    const ea = enumOf(a);
    if (eb || ea) {
      const key = (v: unknown) => JSON.stringify(v);
      const removed = eb && ea ? eb.filter((v) => !ea.map(key).includes(key(v))) : [];
      const addedValues = eb && ea ? ea.filter((v) => !eb.map(key).includes(key(v))) : [];
      if (side === 'request' && (removed.length > 0 || (!eb && ea)))
        add(
          true,
          'request-enum-narrowed',
          where,
          `no longer accepts ${removed.map(key).join(', ') || 'any value outside the enum'}`,
        );
      if (side === 'response' && (addedValues.length > 0 || (eb && !ea)))
        add(
          true,
          'response-enum-widened',
          where,
          `may now be ${addedValues.map(key).join(', ') || 'any value'}`,
        );
      if (side === 'request' && addedValues.length > 0)
        add(false, 'request-enum-widened', where, `also accepts ${addedValues.map(key).join(', ')}`);
      if (side === 'response' && removed.length > 0)
        add(false, 'response-enum-narrowed', where, `no longer ${removed.map(key).join(', ')}`);
    }
    if (side === 'request') bounds(b, a, where);

    const pb = asObject(b.properties);
    const pa = asObject(a.properties);
    const reqB = new Set((b.required as string[] | undefined) ?? []);
    const reqA = new Set((a.required as string[] | undefined) ?? []);
    for (const name of Object.keys(pb)) {
      const at = `${where}.${name}`;
      if (!(name in pa)) {
        add(true, side === 'request' ? 'request-field-removed' : 'response-field-removed', at, 'removed');
        continue;
      }
      if (side === 'request' && !reqB.has(name) && reqA.has(name))
        add(true, 'request-field-now-required', at, 'was optional, now required');
      if (side === 'response' && reqB.has(name) && !reqA.has(name))
        add(true, 'response-field-now-optional', at, 'was always present, now may be absent');
      schema(pb[name], pa[name], side, at, seen);
    }
    for (const name of Object.keys(pa)) {
      if (name in pb) continue;
      const at = `${where}.${name}`;
      if (side === 'request' && reqA.has(name))
        add(true, 'request-field-added-required', at, 'new required field');
      else add(false, `${side}-field-added`, at, reqA.has(name) ? 'new field' : 'new optional field');
    }
    if (b.items !== undefined && a.items !== undefined) schema(b.items, a.items, side, `${where}[]`, seen);
    if (b.additionalProperties !== undefined && a.additionalProperties !== undefined)
      schema(b.additionalProperties, a.additionalProperties, side, `${where}{}`, seen);
    for (const k of ['anyOf', 'oneOf'] as const) {
      const vb = (b[k] as unknown[] | undefined) ?? [];
      const va = (a[k] as unknown[] | undefined) ?? [];
      const n = Math.min(vb.length, va.length);
      for (let i = 0; i < n; i++) schema(vb[i], va[i], side, `${where}<${i}>`, seen);
      if (va.length > vb.length && vb.length > 0 && side === 'response')
        add(true, 'response-variant-added', where, `${va.length - vb.length} new ${k} variant(s)`);
      if (vb.length > va.length && va.length > 0 && side === 'request')
        add(
          true,
          'request-variant-removed',
          where,
          `${vb.length - va.length} ${k} variant(s) no longer accepted`,
        );
    }
  };

  /** A tighter bound on input is breaking; a looser one is compatible. */
  const bounds = (b: Json, a: Json, where: string) => {
    const upper = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties'];
    const lower = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties'];
    for (const k of upper) {
      const vb = b[k] as number | undefined;
      const va = a[k] as number | undefined;
      if (va !== undefined && (vb === undefined || va < vb))
        add(true, 'request-bound-tightened', where, `${k} ${vb ?? 'none'} -> ${va}`);
      else if (vb !== undefined && (va === undefined || va > vb))
        add(false, 'request-bound-loosened', where, `${k} ${vb} -> ${va ?? 'none'}`);
    }
    for (const k of lower) {
      const vb = b[k] as number | undefined;
      const va = a[k] as number | undefined;
      if (va !== undefined && (vb === undefined || va > vb))
        add(true, 'request-bound-tightened', where, `${k} ${vb ?? 'none'} -> ${va}`);
      else if (vb !== undefined && (va === undefined || va < vb))
        add(false, 'request-bound-loosened', where, `${k} ${vb} -> ${va ?? 'none'}`);
    }
    if (a.pattern !== undefined && a.pattern !== b.pattern)
      add(
        true,
        'request-pattern-changed',
        where,
        `pattern ${String(b.pattern ?? 'none')} -> ${String(a.pattern)}`,
      );
    if (b.additionalProperties !== false && a.additionalProperties === false && b.type === 'object')
      add(true, 'request-closed', where, 'unknown fields are now refused');
  };

  const pathsB = asObject(before.paths);
  const pathsA = asObject(after.paths);
  for (const [path, itemB] of Object.entries(pathsB)) {
    for (const method of METHODS) {
      const ob = asObject(asObject(itemB)[method]);
      if (Object.keys(ob).length === 0) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const oa = asObject(asObject(pathsA[path])[method]);
      if (Object.keys(oa).length === 0) {
        add(true, 'operation-removed', where, `operation ${String(ob.operationId)} removed`);
        continue;
      }
      if (oa.deprecated === true && ob.deprecated !== true)
        add(false, 'operation-deprecated', where, 'now deprecated');
      operation(ob, oa, where);
    }
  }
  for (const [path, itemA] of Object.entries(pathsA))
    for (const method of METHODS)
      if (asObject(itemA)[method] && !asObject(asObject(pathsB[path])[method]).operationId)
        add(false, 'operation-added', `${method.toUpperCase()} ${path}`, 'new operation');

  function operation(ob: Json, oa: Json, where: string) {
    // Parameters, by location and name.
    const params = (op: Json, r: (n: unknown) => Json) =>
      new Map(
        ((op.parameters as unknown[]) ?? [])
          .map((p) => r(p))
          .map((p) => [`${String(p.in)}:${String(p.name)}`, p]),
      );
    const parB = params(ob, rb);
    const parA = params(oa, ra);
    for (const [key, p] of parB) {
      const q = parA.get(key);
      if (!q) add(true, 'parameter-removed', `${where} ${key}`, 'removed: a caller sending it is refused');
      else {
        if (!p.required && q.required)
          add(true, 'parameter-now-required', `${where} ${key}`, 'was optional, now required');
        schema(p.schema, q.schema, 'request', `${where} ${key}`, new Set());
      }
    }
    for (const [key, q] of parA)
      if (!parB.has(key))
        add(
          Boolean(q.required),
          q.required ? 'parameter-added-required' : 'parameter-added',
          `${where} ${key}`,
          q.required ? 'new required parameter' : 'new optional parameter',
        );

    // Request body.
    const bodyB = asObject(asObject(asObject(ob.requestBody).content)['application/json']).schema;
    const bodyA = asObject(asObject(asObject(oa.requestBody).content)['application/json']).schema;
    if (bodyB !== undefined && bodyA !== undefined)
      schema(bodyB, bodyA, 'request', `${where} body`, new Set());
    else if (bodyB === undefined && bodyA !== undefined && asObject(oa.requestBody).required)
      add(true, 'request-body-added-required', `${where} body`, 'now requires a body');
    else if (bodyB !== undefined && bodyA === undefined)
      add(true, 'request-body-removed', `${where} body`, 'no longer takes a body');

    // Responses, by status.
    const respB = asObject(ob.responses);
    const respA = asObject(oa.responses);
    for (const [status, r] of Object.entries(respB)) {
      const at = `${where} ${status}`;
      if (!(status in respA)) {
        add(
          status.startsWith('2'),
          status.startsWith('2') ? 'success-response-removed' : 'error-response-removed',
          at,
          'no longer documented',
        );
        continue;
      }
      const cb = asObject(rb(r).content);
      const ca = asObject(ra(respA[status]).content);
      for (const [media, m] of Object.entries(cb)) {
        if (!(media in ca)) add(true, 'response-media-type-removed', at, `${media} no longer answered`);
        else schema(asObject(m).schema, asObject(ca[media]).schema, 'response', `${at} ${media}`, new Set());
      }
      const hb = asObject(rb(r).headers);
      const ha = asObject(ra(respA[status]).headers);
      for (const h of Object.keys(hb))
        if (!Object.keys(ha).some((k) => k.toLowerCase() === h.toLowerCase()))
          add(true, 'response-header-removed', at, `header ${h} removed`);
    }
    for (const status of Object.keys(respA))
      if (!(status in respB))
        add(
          status.startsWith('2'),
          status.startsWith('2') ? 'success-response-added' : 'error-response-added',
          `${where} ${status}`,
          'newly documented',
        );
  }

  return changes;
}
