import * as z from 'zod/mini';
import { DEMO_OPERATIONS } from './demo';
import { op } from './operation';

/** Public, read-only routes: health, the OpenAPI document and the demo surface. */
export const PUBLIC_OPERATIONS = {
  'public.health': op({
    group: 'public',
    method: 'GET',
    path: '/health',
    summary: 'Health: ok while the table answers a read, else 503',
    auth: 'public',
    status: 200,
    response: z.object({ status: z.literal('ok') }),
  }),
  'public.openapi': op({
    group: 'public',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 description',
    auth: 'public',
    status: 200,
  }),
  ...DEMO_OPERATIONS,
} as const;
