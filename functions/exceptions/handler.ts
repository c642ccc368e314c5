import {
  changeExceptionStatus,
  createException,
  getException,
  listExceptions,
} from '#shared/domain/exceptions/use-cases';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { exceptionStore } from '#functions/adapters/exception-store';
import { clock } from '#functions/config';
import { httpHandler } from '#functions/lib/http';
import { idempotencyIn } from '#functions/lib/idempotency';
import { tenantExistsIn } from '#functions/lib/tenant-exists';

const db = dbFromEnv();
const deps = { exceptions: exceptionStore(db), clock };

export const handler = httpHandler(
  EXCEPTIONS_OPERATIONS,
  {
    'exceptions.create': ({ principal, params, body }) =>
      createException(deps, principal, params.tenant_id, body),
    'exceptions.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listExceptions(deps, params.tenant_id, filter, { limit, cursor }),
    'exceptions.get': ({ params }) => getException(deps, params.tenant_id, params.exception_id),
    'exceptions.changeStatus': ({ principal, params, body }) =>
      changeExceptionStatus(deps, principal, params.tenant_id, params.exception_id, body),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyIn(db) },
);
