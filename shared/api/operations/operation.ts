import type * as core from 'zod/v4/core';
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
}

export type Operations = Record<string, Operation>;

export const op = <const O extends Operation>(o: O) => o;
