import {
  changeDocumentStatus,
  createDocument,
  getDocument,
  listDocuments,
} from '#shared/domain/documents/use-cases';
import { DOCUMENTS_OPERATIONS } from '#shared/api/operations/documents';
import { documentStore } from '#functions/adapters/document-store';
import { dbFor } from '#functions/adapters/dynamo';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = { documents: documentStore(db), zones: tenantZones(db), clock };

export const handler = httpHandler(
  DOCUMENTS_OPERATIONS,
  {
    'documents.create': ({ principal, params, body }) =>
      createDocument(deps, principal, params.tenant_id, body),
    'documents.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listDocuments(deps, params.tenant_id, filter, { limit, cursor }),
    'documents.get': ({ params }) => getDocument(deps, params.tenant_id, params.document_id),
    'documents.changeStatus': ({ principal, params, body }) =>
      changeDocumentStatus(deps, principal, params.tenant_id, params.document_id, body),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
