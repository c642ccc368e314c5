import { TenantPath } from '#shared/api/schemas/common';
import {
  DocumentCreate,
  DocumentListQuery,
  DocumentPath,
  DocumentStatusChange,
} from '#shared/api/schemas/documents';
import { op } from './operation';

/** Business documents: invoices, payments and credit notes (docs/api.md section 9). */
export const DOCUMENTS_OPERATIONS = {
  'documents.create': op({
    group: 'documents',
    method: 'POST',
    path: '/tenants/{tenant_id}/documents',
    summary: 'Record an invoice, payment or credit note (as draft)',
    auth: 'bearer',
    permission: 'documents.create',
    params: TenantPath,
    body: DocumentCreate,
    idempotent: true,
    status: 201,
  }),
  'documents.list': op({
    group: 'documents',
    method: 'GET',
    path: '/tenants/{tenant_id}/documents',
    summary: 'List documents, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: DocumentListQuery,
    status: 200,
  }),
  'documents.get': op({
    group: 'documents',
    method: 'GET',
    path: '/tenants/{tenant_id}/documents/{document_id}',
    summary: 'Get a document',
    auth: 'bearer',
    permission: 'tenant.read',
    params: DocumentPath,
    status: 200,
  }),
  'documents.changeStatus': op({
    group: 'documents',
    method: 'POST',
    path: '/tenants/{tenant_id}/documents/{document_id}/status',
    summary: 'Open, pay or void a document',
    auth: 'bearer',
    permission: 'documents.create',
    params: DocumentPath,
    body: DocumentStatusChange,
    status: 200,
  }),
} as const;
