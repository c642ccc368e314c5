import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Principal } from '#shared/kernel/policy';
import type { RouteMatch } from './router';

/**
 * What the Lambda authorizer (functions/authorizer) hands over: the principal as JSON, or `''`
 * for a missing or bad token; with `auth: 'unavailable'` when it could not check the token.
 */
export interface AuthorizerContext {
  principal: string;
  auth?: 'unavailable';
}

/** API Gateway's HTTP API event, with what the Lambda authorizer hands over. */
export type ApiEvent = APIGatewayProxyEventV2 & {
  requestContext: { authorizer?: { lambda?: Partial<AuthorizerContext> } };
};

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

/** What the middlewares learn about a request, for the ones after them and the dispatcher. */
export interface RequestState {
  requestId: string;
  started: number;
  route?: RouteMatch;
  principal?: Principal;
}

/**
 * The Lambda context with the request's state, set by the envelope (the first of our
 * middlewares). The state rides on the context rather than in middy's `request.internal`
 * because middy calls the handler with the event and the context only.
 */
export interface HttpContext extends Context {
  http: RequestState;
}

export type HttpMiddleware = MiddlewareObj<ApiEvent, HttpResponse, Error, HttpContext>;
export type MiddyRequest = Request<ApiEvent, HttpResponse, Error, HttpContext>;
