import { buildOpenApi } from '#shared/api/openapi';
import { DEMO_PAYLOADS } from './index';
import { DEMO_RESPONSES } from './responses';

/**
 * The service's OpenAPI document: the API's operations, with the demo routes' response records
 * and bodies (their examples) given by the demo. The composition lives here, outside shared/api,
 * so that the API contract depends on no demo content; `npm run build:openapi` writes it.
 */
export const serviceOpenApi = () =>
  buildOpenApi({
    responses: DEMO_RESPONSES,
    bodies: Object.fromEntries(Object.entries(DEMO_PAYLOADS).map(([id, { body }]) => [id, body])),
  });
