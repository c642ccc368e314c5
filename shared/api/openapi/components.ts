import * as z from 'zod';
import type * as core from 'zod/v4/core';
import { type Json, publishBounds } from './bounds';

/** JSON Schema and OpenAPI objects, as plain data. */
export type { Json } from './bounds';
type Io = 'input' | 'output';

export const REF = '#/components/schemas/';

const stable = (value: unknown): string => JSON.stringify(value);

/** Rewrites every `$ref` of a JSON Schema tree with `map`. */
function rewriteRefs(node: unknown, map: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, map));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' ? map(value) : rewriteRefs(value, map);
  }
  return out;
}

/** Collects named schemas as components while converting zod schemas to JSON Schema. */
export class Components {
  readonly schemas = new Map<string, Json>();

  /**
   * Converts `schema` and hoists every named (`$defs`) schema into the components. Returns the
   * schema to place inline: a `$ref` when the root schema itself is named.
   */
  convert(schema: core.$ZodType, io: Io): Json {
    const {
      $schema: _,
      $defs,
      ...root
    } = publishBounds(
      z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io,
        unrepresentable: 'any',
        reused: 'inline',
      }),
    ) as Json & { $defs?: Record<string, Json> };
    const defs = $defs ?? {};
    const rename = new Map<string, string>();
    const local = (id: string) => rename.get(id) ?? id;
    const mapRef = (ref: string) => (ref.startsWith('#/$defs/') ? `${REF}${local(ref.slice(8))}` : ref);
    // A named schema whose input side differs from the output side already registered gets its own
    // name; renaming one can change the ones that refer to it, so repeat until nothing changes.
    for (let changed = true; changed;) {
      changed = false;
      for (const [id, def] of Object.entries(defs)) {
        if (rename.has(id)) continue;
        const known = this.schemas.get(id);
        if (io === 'input' && known && stable(known) !== stable(rewriteRefs(def, mapRef))) {
          rename.set(id, `${id}Input`);
          changed = true;
        }
      }
    }
    for (const [id, def] of Object.entries(defs)) {
      const name = local(id);
      const converted = rewriteRefs(def, mapRef) as Json;
      const known = this.schemas.get(name);
      if (known && stable(known) !== stable(converted)) {
        throw new Error(`Two different schemas are both named ${name}`);
      }
      this.schemas.set(name, converted);
    }
    return rewriteRefs(root, mapRef) as Json;
  }

  sorted(): Record<string, Json> {
    return Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
