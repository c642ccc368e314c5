import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { authenticate } from '#shared/domain/identity/sessions';
import { identityDeps } from '#functions/auth/deps';
import { logger } from '#functions/observability';

const deps = identityDeps();

/** `Authorization: Bearer <token>` -> the token, or undefined. */
export const bearerToken = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
};

/**
 * The HTTP API's Lambda authorizer (simple responses). It always authorizes and hands the
 * principal, or nothing, to the route's function: the function then answers 401 as
 * problem+json, which API Gateway's own deny response cannot do.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2) => {
  const token = bearerToken(event.headers?.authorization);
  try {
    const principal = token ? await authenticate(deps, token) : undefined;
    return { isAuthorized: true, context: { principal: principal ? JSON.stringify(principal) : '' } };
  } catch (error) {
    logger.error('token check failed', { error: error as Error });
    return { isAuthorized: true, context: { principal: '' } };
  }
};
