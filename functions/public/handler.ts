import { httpHandler } from '../lib/http';

/**
 * Public, read-only routes. This group is also API Gateway's `$default` route, so every unknown
 * path gets its 404 problem+json from here.
 */
export const handler = httpHandler('public', {
  'public.health': async () => ({ status: 'ok' }),
  'public.openapi': async () => ({ openapi: '3.1.0' }),
});
