import * as z from 'zod/mini';
import type { Operations } from '#shared/api/manifest';
import {
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from '#shared/kernel/errors';
import { authorize, isPlatformAdmin, roleIn } from '#shared/kernel/policy';
import type { HttpMiddleware } from './context';
import type { TokenCheckOptions } from '#functions/authorizer/token-check';
import { callerOf } from './principal';
import { routerFor } from './router';

/** docs/api.md section 1. */
const MAX_BODY_BYTES = 256 * 1024;
const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;

/** For platform_admin on a tenant it is not a member of: does the tenant exist? */
export type TenantExists = (tenantId: string) => Promise<boolean>;

/**
 * Routing and access, before any body is read: 404/405 from the route table, 401 without a
 * valid principal (503 when the token cannot be checked: ./principal.ts), 404 for a tenant the
 * caller is not a member of, 403 for a role the policy table refuses, then 413 and 415 for the
 * body.
 */
export const guard = (
  operations: Operations,
  tenantExists?: TenantExists,
  tokenCheck?: TokenCheckOptions,
): HttpMiddleware => {
  const route = routerFor(operations);
  return {
    before: async ({ event, context }) => {
      const state = context.http;
      const found = route(event.requestContext.http.method, event.rawPath);
      if (found.kind === 'not_found') throw new NotFoundError('No such route.');
      if (found.kind === 'wrong_method') throw new MethodNotAllowedError(found.allow);
      const { op, params } = found.route;
      state.route = found.route;

      if (op.auth === 'bearer') {
        const principal = await callerOf(event, tokenCheck);
        if (!principal) throw new UnauthenticatedError();
        state.principal = principal;
      }
      if (op.params && !z.safeParse(op.params, params).success) throw new NotFoundError();
      const principal = state.principal;
      if (principal && op.permission) {
        const tenantId = params.tenant_id;
        const decision = authorize(principal, op.permission, tenantId);
        if (decision === 'not_found') throw new NotFoundError();
        if (decision === 'forbidden') throw new ForbiddenError();
        if (
          tenantId !== undefined &&
          isPlatformAdmin(principal) &&
          roleIn(principal, tenantId) === undefined &&
          tenantExists &&
          !(await tenantExists(tenantId))
        ) {
          throw new NotFoundError();
        }
      }

      if (op.body) {
        const raw = event.body ?? '';
        const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
        if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
        if (!JSON_CONTENT_TYPE.test(event.headers?.['content-type'] ?? ''))
          throw new UnsupportedMediaTypeError();
      }
    },
  };
};
