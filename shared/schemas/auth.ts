import * as z from 'zod';
import { ROLES } from '../policy';
import { DateTime } from './common';

export const Role = z.enum(ROLES).meta({ id: 'Role' });

export const Email = z.email().max(254);
export const DisplayName = z.string().trim().min(1).max(120);
/** New passwords: at least 12 characters (CONTRACT.md section 3). */
export const NewPassword = z.string().min(12).max(256);

export const SessionCreate = z
  .strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(256) })
  .meta({ id: 'SessionCreate' });

export const UserRead = z
  .object({ id: z.string(), email: z.string(), display_name: z.string(), created_at: DateTime })
  .meta({ id: 'UserRead' });

export const MembershipRead = z
  .object({ tenant_id: z.string(), tenant_name: z.string(), role: Role, created_at: DateTime })
  .meta({ id: 'MembershipRead' });

export const AccessTokenRead = z
  .object({
    access_token: z.string(),
    expires_at: DateTime,
    token_type: z.literal('bearer').default('bearer'),
    user: UserRead,
  })
  .meta({ id: 'AccessTokenRead' });

export const AuthMeRead = z
  .object({
    user: UserRead,
    memberships: z.array(MembershipRead),
    platform_roles: z.array(z.literal('platform_admin')).optional(),
  })
  .meta({ id: 'AuthMeRead' });

export const SESSION_STATUSES = ['active', 'revoked', 'expired'] as const;

export const AuthSessionRead = z
  .object({
    token_id: z.string(),
    user_id: z.string(),
    user_email: z.string(),
    user_display_name: z.string(),
    status: z.enum(SESSION_STATUSES),
    expires_at: DateTime,
    tenant_ids: z.array(z.string()),
    created_at: DateTime.nullable().optional(),
    last_used_at: DateTime.nullable().optional(),
    revoked_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'AuthSessionRead' });

export const AuthSessionList = z.object({ items: z.array(AuthSessionRead) }).meta({ id: 'AuthSessionList' });

export const SessionPath = z.object({ token_id: z.string().min(1).max(128) });
