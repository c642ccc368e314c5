import {
  changeExceptionStatus,
  createException,
  getException,
  listExceptions,
} from '#shared/domain/exceptions/use-cases';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { dbFor } from '#functions/adapters/dynamo';
import { policyReader } from '#functions/adapters/escalation-policy-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
// The policies: a new exception is put under the one that fits, and its acknowledgement may time out.
const deps = { exceptions: exceptionStore(db), policies: policyReader(db), clock };

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
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
