import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { AuthorizerContext } from '#functions/http/context';
import { logger } from '#functions/observability';
import { checkBearer } from './token-check';

/**
 * The HTTP API's Lambda authorizer (simple responses). It always authorizes and hands the
 * principal, or nothing, to the route's function: the function then answers 401 as
 * problem+json, which API Gateway's own deny response cannot do.
 *
 * When the check itself fails (the table is unavailable) it hands over `auth: 'unavailable'`
 * instead of an empty principal, and the route's function runs the check again itself
 * (functions/http/principal.ts): API Gateway caches this answer for the TTL like any other, so
 * an empty principal here would be a cached 401 for a valid token (docs/decisions.md).
 */
export const handler = async (
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<{ isAuthorized: true; context: AuthorizerContext }> => {
  try {
    const principal = await checkBearer(event.headers?.authorization);
    return { isAuthorized: true, context: { principal: principal ? JSON.stringify(principal) : '' } };
  } catch (error) {
    logger.error('token check failed', { error: error as Error });
    return { isAuthorized: true, context: { principal: '', auth: 'unavailable' } };
  }
};
