import { TenantPath } from '#shared/api/schemas/common';
import {
  BusinessExceptionCreate,
  BusinessExceptionStatusChange,
  ExceptionListQuery,
  ExceptionPath,
} from '#shared/api/schemas/exceptions';
import { op } from './operation';

/** Business exceptions (docs/api.md section 6). */
export const EXCEPTIONS_OPERATIONS = {
  'exceptions.create': op({
    group: 'exceptions',
    method: 'POST',
    path: '/tenants/{tenant_id}/exceptions',
    summary: 'Record a business exception',
    auth: 'bearer',
    permission: 'exceptions.write',
    params: TenantPath,
    body: BusinessExceptionCreate,
    idempotent: true,
    status: 201,
  }),
  'exceptions.list': op({
    group: 'exceptions',
    method: 'GET',
    path: '/tenants/{tenant_id}/exceptions',
    summary: 'List business exceptions, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: ExceptionListQuery,
    status: 200,
  }),
  'exceptions.get': op({
    group: 'exceptions',
    method: 'GET',
    path: '/tenants/{tenant_id}/exceptions/{exception_id}',
    summary: 'Get a business exception',
    auth: 'bearer',
    permission: 'tenant.read',
    params: ExceptionPath,
    status: 200,
  }),
  'exceptions.changeStatus': op({
    group: 'exceptions',
    method: 'POST',
    path: '/tenants/{tenant_id}/exceptions/{exception_id}/status',
    summary: 'Acknowledge or resolve a business exception',
    auth: 'bearer',
    permission: 'exceptions.write',
    params: ExceptionPath,
    body: BusinessExceptionStatusChange,
    status: 200,
  }),
} as const;
