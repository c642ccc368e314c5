import { brotliDecompressSync } from 'node:zlib';
import { OPENAPI_BROTLI } from '#generated/openapi-brotli';
import { demoResponse } from '#shared/demo/served';
import { PUBLIC_OPERATIONS } from '#shared/api/operations/public';
import { tableHealth } from '#functions/adapters/table-health';
import { clock, tableConfig } from '#functions/config';
import { type HttpRequest, HttpResult } from '#functions/http/dispatch';
import { httpHandler } from '#functions/http/handler';

/**
 * Public, read-only routes: health, the OpenAPI document and the demo surface. This group is
 * also API Gateway's `$default` route, so every unknown path gets its 404 problem+json here.
 * Health is `ok` only while the table answers (../adapters/table-health.ts), the one read this
 * function may make.
 *
 * The OpenAPI document is the committed `generated/openapi.json`, which a test keeps equal to the
 * document generated from the schemas (shared/api/openapi.ts); serving the file keeps zod's JSON
 * Schema generator out of the Lambda bundle and the work out of its cold start. The bundle holds
 * it brotli-compressed (`generated/openapi-brotli.ts`, written beside it), a tenth of its size.
 */
const OPENAPI_JSON = brotliDecompressSync(Buffer.from(OPENAPI_BROTLI, 'base64')).toString('utf8');
// How long an answer stands is read on the functions' clock, as every time is (the system's in the
// cloud; the local runtime's manual clock moves it without waiting).
const tableAnswers = tableHealth(tableConfig(), () => clock.now().getTime());

type DemoId = Exclude<keyof typeof PUBLIC_OPERATIONS, 'public.health' | 'public.openapi'>;

/**
 * Demo payloads, precomputed by `npm run build:demo` (shared/demo/served.ts), with a strong ETag:
 * `If-None-Match` gets 304 and no body.
 */
const demo = (id: DemoId) => async (req: HttpRequest<(typeof PUBLIC_OPERATIONS)[DemoId]>) => {
  const found = demoResponse(id)!;
  const headers = { etag: found.etag, 'cache-control': found.cacheControl };
  const match = req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === found.etag);
  return match ? new HttpResult(undefined, headers, 304) : new HttpResult(found.json, headers);
};

export const handler = httpHandler(PUBLIC_OPERATIONS, {
  'public.health': async () => {
    await tableAnswers();
    // Like its 503: a health answer describes this moment only.
    return new HttpResult({ status: 'ok' }, { 'cache-control': 'no-store' });
  },
  'public.openapi': async () => new HttpResult(OPENAPI_JSON, { 'cache-control': 'public, max-age=300' }),
  'demo.public': demo('demo.public'),
  'demo.notificationDelivery': demo('demo.notificationDelivery'),
  'demo.businessNotificationChannels': demo('demo.businessNotificationChannels'),
  'demo.connectorCertification': demo('demo.connectorCertification'),
  'demo.providerOnboarding': demo('demo.providerOnboarding'),
  'demo.integrationRepair': demo('demo.integrationRepair'),
  'demo.connectorFixtureReplay': demo('demo.connectorFixtureReplay'),
  'demo.businessScenarioReplay': demo('demo.businessScenarioReplay'),
});
