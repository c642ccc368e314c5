import type * as z from 'zod';
import type { Permission } from '../policy';

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
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Creating POSTs honour the `Idempotency-Key` header. */
  idempotent?: boolean;
  status: number;
  response?: z.ZodType;
}

export type Operations = Record<string, Operation>;

export const op = <const O extends Operation>(o: O) => o;
