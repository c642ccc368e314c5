/**
 * JSON with object keys sorted: two values that differ only in the order of their keys (a rule's
 * actions parsed from a request and read from the table, a connection's config) read the same.
 * Array order counts.
 */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** Whether a PATCH's value for a field is what the record holds: the test of a change that changes nothing. */
export const sameValue = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
