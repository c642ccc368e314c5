import {
  changeExceptionStatus,
  createException,
  getException,
  listExceptions,
} from '../../shared/domain/exceptions';
import { storesFromEnv } from '../adapters/stores';
import { clock } from '../config';
import { httpHandler } from '../lib/http';
import { tenantExists } from '../lib/tenant-exists';

const { exceptions, tenants } = storesFromEnv();
const deps = { exceptions, clock };

export const handler = httpHandler(
  'exceptions',
  {
    'exceptions.create': ({ principal, params, body }) =>
      createException(deps, principal, params.tenant_id, body),
    'exceptions.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listExceptions(deps, params.tenant_id, filter, { limit, cursor }),
    'exceptions.get': ({ params }) => getException(deps, params.tenant_id, params.exception_id),
    'exceptions.changeStatus': ({ principal, params, body }) =>
      changeExceptionStatus(deps, principal, params.tenant_id, params.exception_id, body),
  },
  { tenantExists: tenantExists(tenants) },
);
