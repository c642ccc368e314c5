import { type Deprecation, deprecationHeaders } from '../deprecation';
import type { Operation } from '../operations/operation';
import { type Components, type Json, REF } from './components';

/**
 * A deprecation in the OpenAPI document (docs/api.md section 12): `deprecated: true` where OpenAPI
 * has the keyword (operation, parameter, schema), a sentence in the description for readers, and
 * `x-deprecation` with the manifest's facts for the client generators.
 */

/** `Deprecated since 2026-12-01; sunset 2027-06-01; see https://...`. */
export const deprecationNote = (d: Deprecation): string =>
  [
    `Deprecated since ${d.since}`,
    ...(d.sunset ? [`sunset ${d.sunset}`] : []),
    ...(d.link ? [`see ${d.link}`] : []),
  ].join('; ') + '.';

/** Marks an operation object, or a schema or parameter, as deprecated. */
export function markDeprecated(target: Json, d: Deprecation): void {
  target.deprecated = true;
  const note = deprecationNote(d);
  target.description =
    typeof target.description === 'string' && target.description ? `${target.description} ${note}` : note;
  target['x-deprecation'] = { ...d };
}

/** The response headers a deprecated operation answers with, each with its one value. */
export function deprecationResponseHeaders(d: Deprecation): Json {
  const values = deprecationHeaders(d);
  const header = (description: string, value: string) => ({
    description,
    schema: { type: 'string', const: value, maxLength: value.length },
  });
  const out: Json = {
    Deprecation: header(
      'RFC 9745: the operation is deprecated as of this moment (`@` and Unix seconds).',
      values.deprecation!,
    ),
  };
  if (values.sunset)
    out.Sunset = header('RFC 8594: the operation may stop answering after this HTTP-date.', values.sunset);
  if (values.link) out.Link = header('The deprecation notice: what to use instead.', values.link);
  return out;
}

/** The schema at `ref` (a component's, `$ref` followed), or `schema` itself. */
const resolve = (c: Components, schema: Json): Json => {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(REF)
    ? (c.schemas.get(ref.slice(REF.length)) ?? schema)
    : schema;
};

/** The property schema at the dotted `path` under `root`, following `$ref`s and array items. */
function property(c: Components, root: Json, path: string[]): Json | undefined {
  let at: Json | undefined = root;
  for (const name of path) {
    if (!at) return undefined;
    let node = resolve(c, at);
    if (node.type === 'array' && node.items) node = resolve(c, node.items as Json);
    at = (node.properties as Record<string, Json> | undefined)?.[name];
  }
  return at;
}

/**
 * Marks the operation's deprecated fields, once every schema is converted (a marked component
 * would no longer equal its next conversion). A field of a named record is marked in its
 * component, so it reads deprecated wherever the record appears: a field belongs to its record,
 * not to one route. Throws on a path that names nothing, so a typo never publishes silently.
 */
export function markDeprecatedFields(c: Components, id: string, op: Operation, out: Json): void {
  for (const [where, d] of Object.entries(op.deprecatedFields ?? {})) {
    const [side, ...path] = where.split('.');
    let target: Json | undefined;
    if (side === 'query' && path.length === 1) {
      target = (out.parameters as Json[] | undefined)?.find((p) => p.in === 'query' && p.name === path[0]);
    } else if (side === 'body') {
      const body = (out.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content;
      target = body && property(c, Object.values(body)[0]!.schema, path);
    } else if (side === 'response') {
      const success = (out.responses as Record<string, { content?: Record<string, { schema: Json }> }>)[
        String(op.status)
      ];
      const schema = success?.content && Object.values(success.content)[0]?.schema;
      target = schema && property(c, schema, path);
    }
    if (!target) throw new Error(`${id}: deprecated field ${where} is not in the operation`);
    if (side !== 'query' && target.$ref) {
      // A `$ref` takes no siblings in generators that read OpenAPI 3.0 rules: wrap it.
      const ref = target.$ref;
      delete target.$ref;
      target.allOf = [{ $ref: ref }];
    }
    markDeprecated(target, d);
  }
}
