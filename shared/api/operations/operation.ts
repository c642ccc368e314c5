import type * as core from 'zod/v4/core';
import type { Deprecation } from '#shared/api/deprecation';
import type { Permission } from '#shared/kernel/policy';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  group: string;
  method: Method;
  path: string;
  summary: string;
  /** `public` routes take no token; `bearer` routes need one. */
  auth: 'public' | 'bearer';
  /** Checked against the role matrix; tenant-scoped when the path has `{tenant_id}`. */
  permission?: Permission;
  params?: core.$ZodObject;
  query?: core.$ZodType;
  body?: core.$ZodType;
  /** Creating POSTs honour the `Idempotency-Key` header. */
  idempotent?: boolean;
  status: number;
  response?: core.$ZodType;
  /**
   * A page for a browser rather than JSON (the OAuth callback): the success and the answers the
   * person can act on (400, 429, 503) are `text/html`.
   */
  html?: true;
  /** A second success status that some callers get instead of `status` (the OpenAPI document lists both). */
  alternative?: { status: number; when: string; response?: core.$ZodType };
  /**
   * The operation is deprecated (docs/api.md section 12): the document marks it, and every success
   * answer carries `Deprecation`, and `Sunset` and `Link` when given.
   */
  deprecated?: Deprecation;
  /**
   * Fields of this operation that are deprecated, by where they sit: `body.<field>`,
   * `query.<parameter>` or `response.<field>` (dots for nested fields). The document marks the
   * field's schema; no header is sent, since the headers speak of the whole operation.
   */
  deprecatedFields?: Record<string, Deprecation>;
}

export type Operations = Record<string, Operation>;

export const op = <const O extends Operation>(o: O) => o;
