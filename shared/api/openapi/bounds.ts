/** A JSON Schema object as the builder handles it (./components.ts re-exports it). */
export type Json = Record<string, unknown>;

/**
 * Bounds the zod schemas already enforce but zod's JSON Schema output does not state, added to
 * the document so that a client (and the OWASP lint, tests/unit/openapi-lint.test.ts) sees them:
 * - an integer's `format`: `int32` when its minimum and maximum fit, otherwise `int64`;
 * - a string's `maxLength` when its `pattern` admits only strings of a bounded length (money,
 *   dates, keys): the longest string the pattern matches, computed, never written by hand.
 * Nothing here tightens what the handlers accept.
 */

const INT32 = 2 ** 31;

/** The longest string `pattern` matches, or undefined when unbounded or beyond this reader. */
export function patternMaxLength(pattern: string): number | undefined {
  let i = 0;
  const atom = (): number | undefined => {
    const c = pattern[i];
    if (c === '(') {
      i += 1;
      if (pattern.startsWith('?:', i)) i += 2;
      const inner = alternation();
      if (pattern[i] !== ')') return undefined;
      i += 1;
      return inner;
    }
    if (c === '[') {
      i += 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      if (pattern[i] !== ']') return undefined;
      i += 1;
      return 1;
    }
    if (c === '\\') {
      // Back-references and word boundaries are beyond this reader.
      if (/[1-9bBk]/.test(pattern[i + 1] ?? '')) return undefined;
      i += 2;
      return 1;
    }
    if (c === '.' || (c !== undefined && !'|)*+?{'.includes(c))) {
      i += 1;
      return 1;
    }
    return undefined;
  };
  const quantified = (): number | undefined => {
    const base = atom();
    if (base === undefined) return undefined;
    const q = pattern[i];
    if (q === '*' || q === '+') return undefined;
    if (q === '?') {
      i += 1;
      return base;
    }
    if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      if (m[2] !== undefined && m[3] === '') return undefined;
      return base * Number(m[3] ?? m[1]);
    }
    return base;
  };
  const sequence = (): number | undefined => {
    let total = 0;
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      if (pattern[i] === '^' || pattern[i] === '$') {
        i += 1;
        continue;
      }
      const n = quantified();
      if (n === undefined) return undefined;
      total += n;
    }
    return total;
  };
  const alternation = (): number | undefined => {
    let best = sequence();
    while (best !== undefined && pattern[i] === '|') {
      i += 1;
      const next = sequence();
      best = next === undefined ? undefined : Math.max(best, next);
    }
    return best;
  };
  const anchored = pattern.startsWith('^') && pattern.endsWith('$') && !pattern.endsWith('\\$');
  if (!anchored) return undefined;
  const max = alternation();
  return i === pattern.length ? max : undefined;
}

/** Adds the bounds above to every schema of a JSON Schema tree. */
export function publishBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(publishBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = publishBounds(value);
  if (out.type === 'integer' && out.format === undefined) {
    const min = (out.minimum ?? out.exclusiveMinimum) as number | undefined;
    const max = (out.maximum ?? out.exclusiveMaximum) as number | undefined;
    out.format = min !== undefined && max !== undefined && min >= -INT32 && max < INT32 ? 'int32' : 'int64';
  }
  if (out.type === 'string' && out.maxLength === undefined && typeof out.pattern === 'string') {
    const max = patternMaxLength(out.pattern);
    if (max !== undefined) out.maxLength = max;
  }
  return out;
}
