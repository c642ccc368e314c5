import type { Json } from './components';

/** What a page for a browser (an `html` operation) carries: no caching, no referrer, nothing loaded. */
export const HTML_HEADERS: Json = {
  'Cache-Control': { description: '`no-store`', schema: { type: 'string', const: 'no-store' } },
  'Referrer-Policy': { description: '`no-referrer`', schema: { type: 'string', const: 'no-referrer' } },
  'Content-Security-Policy': {
    description: "`default-src 'none'`",
    schema: { type: 'string', const: "default-src 'none'" },
  },
};
