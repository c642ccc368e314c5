import * as z from 'zod/mini';
import { ROLES } from '../policy';
import { DateTime, named, text } from './common';

export const Role = named(z.enum(ROLES), 'Role');

export const Email = z.email().check(z.maxLength(254));
export const DisplayName = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));
/** New passwords: at least 12 characters (CONTRACT.md section 3). */
export const NewPassword = text(12, 256);

export const SessionCreate = named(
  z.strictObject({ email: text(1, 254), password: text(1, 256) }),
  'SessionCreate',
);

export const UserRead = named(
  z.object({ id: z.string(), email: z.string(), display_name: z.string(), created_at: DateTime }),
  'UserRead',
);

export const MembershipRead = named(
  z.object({ tenant_id: z.string(), tenant_name: z.string(), role: Role, created_at: DateTime }),
  'MembershipRead',
);

export const AccessTokenRead = named(
  z.object({
    access_token: z.string(),
    expires_at: DateTime,
    token_type: z._default(z.literal('bearer'), 'bearer'),
    user: UserRead,
  }),
  'AccessTokenRead',
);

export const AuthMeRead = named(
  z.object({
    user: UserRead,
    memberships: z.array(MembershipRead),
    platform_roles: z.optional(z.array(z.literal('platform_admin'))),
  }),
  'AuthMeRead',
);

export const SESSION_STATUSES = ['active', 'revoked', 'expired'] as const;

export const AuthSessionRead = named(
  z.object({
    token_id: z.string(),
    user_id: z.string(),
    user_email: z.string(),
    user_display_name: z.string(),
    status: z.enum(SESSION_STATUSES),
    expires_at: DateTime,
    tenant_ids: z.array(z.string()),
    created_at: z.optional(z.nullable(DateTime)),
    last_used_at: z.optional(z.nullable(DateTime)),
    revoked_at: z.optional(z.nullable(DateTime)),
  }),
  'AuthSessionRead',
);

export const AuthSessionList = named(z.object({ items: z.array(AuthSessionRead) }), 'AuthSessionList');

export const SessionPath = z.object({ token_id: text(1, 128) });
