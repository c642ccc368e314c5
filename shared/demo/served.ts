import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { DEMO_CACHE_CONTROL } from '#shared/api/operations/demo';
import { DEMO_PAYLOADS_BROTLI } from '#generated/demo-payloads-brotli';

/**
 * The demo responses as the public function serves them. The bodies are the ones ./index.ts builds
 * (`DEMO_PAYLOADS`), written by `npm run build:demo` into generated/demo-payloads-brotli.ts as the exact JSON
 * text of each, brotli-compressed; tests/unit/demo/payloads.test.ts keeps them equal. Serving the
 * text keeps the builders (and the previews they run) out of the function's bundle and the work
 * out of its cold start, as the OpenAPI document is served (functions/public/handler.ts).
 */

/** A strong ETag: the quoted SHA-256 (base64url) of the exact JSON text that is served. */
export const etagOf = (json: string): string => `"${createHash('sha256').update(json).digest('base64url')}"`;

/** Operation id -> the body's JSON text. */
const TEXTS = JSON.parse(
  brotliDecompressSync(Buffer.from(DEMO_PAYLOADS_BROTLI, 'base64')).toString('utf8'),
) as Record<string, string>;

const RESPONSES = new Map(
  Object.entries(TEXTS).map(([id, json]) => [
    id,
    Object.freeze({ json, etag: etagOf(json), cacheControl: DEMO_CACHE_CONTROL }),
  ]),
);

/** The response of a demo operation (its JSON text), or `undefined` for any other operation id. */
export function demoResponse(
  operationId: string,
): { json: string; etag: string; cacheControl: string } | undefined {
  return RESPONSES.get(operationId);
}
