import * as z from 'zod/mini';
import { DisplayName, Email, NewPassword, Role } from './auth';
import { DateTime, listOf, named, pageQuery, text } from './common';

export const TenantId = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must match ^[a-z0-9][a-z0-9-]{1,62}$'));

export const TenantCreate = named(
  z.strictObject({ id: TenantId, name: z.string().check(z.trim(), z.minLength(2), z.maxLength(120)) }),
  'TenantCreate',
);

export const TenantRead = named(
  z.object({ id: z.string(), name: z.string(), status: z.enum(['active']), created_at: DateTime }),
  'TenantRead',
);

export const TenantList = named(listOf(TenantRead), 'TenantList');

export const MemberCreate = named(
  z.strictObject({ email: Email, display_name: DisplayName, role: Role, password: z.optional(NewPassword) }),
  'MemberCreate',
);

export const MemberUpdate = named(z.strictObject({ role: Role }), 'MemberUpdate');

export const MemberRead = named(
  z.object({
    tenant_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: Role,
    created_at: DateTime,
    updated_at: z.optional(z.nullable(DateTime)),
  }),
  'MemberRead',
);

export const MemberList = named(listOf(MemberRead), 'MemberList');

export const MemberListQuery = z.strictObject({ ...pageQuery });
export const TenantListQuery = z.strictObject({ ...pageQuery });

export const MemberPath = z.object({ tenant_id: text(1, 64), user_id: text(1, 64) });
