import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and `undefined` members dropped: the same value
 * always encodes to the same text, whatever order its keys were built or read in.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
};

/**
 * `preview_digest`: SHA-256 (hex) of the preview kind, the request with its defaults applied, and
 * exactly the records it read. The clock is left out on purpose: the digest answers "did the data
 * or my question change since I looked", so two runs over unchanged data agree (docs/decisions.md).
 */
export const previewDigest = (kind: string, request: unknown, data: Record<string, unknown>): string =>
  `sha256:${createHash('sha256').update(canonicalJson({ kind, request, data })).digest('hex')}`;
