import * as z from 'zod';
import { DisplayName, Email, NewPassword, Role } from './auth';
import { DateTime, listOf, pageQuery } from './common';

export const TenantId = z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must match ^[a-z0-9][a-z0-9-]{1,62}$');

export const TenantCreate = z
  .strictObject({ id: TenantId, name: z.string().trim().min(2).max(120) })
  .meta({ id: 'TenantCreate' });

export const TenantRead = z
  .object({ id: z.string(), name: z.string(), status: z.enum(['active']), created_at: DateTime })
  .meta({ id: 'TenantRead' });

export const TenantList = listOf(TenantRead).meta({ id: 'TenantList' });

export const MemberCreate = z
  .strictObject({ email: Email, display_name: DisplayName, role: Role, password: NewPassword.optional() })
  .meta({ id: 'MemberCreate' });

export const MemberUpdate = z.strictObject({ role: Role }).meta({ id: 'MemberUpdate' });

export const MemberRead = z
  .object({
    tenant_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: Role,
    created_at: DateTime,
    updated_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'MemberRead' });

export const MemberList = listOf(MemberRead).meta({ id: 'MemberList' });

export const MemberListQuery = z.strictObject({ ...pageQuery });
export const TenantListQuery = z.strictObject({ ...pageQuery });

export const MemberPath = z.object({
  tenant_id: z.string().min(1).max(64),
  user_id: z.string().min(1).max(64),
});
