import * as z from 'zod/mini';
import { DisplayName, Email, NewPassword, Role } from './auth';
import { named, pageQuery, text } from './common';

export const TenantId = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must match ^[a-z0-9][a-z0-9-]{1,62}$'));

export const TenantCreate = named(
  z.strictObject({ id: TenantId, name: z.string().check(z.trim(), z.minLength(2), z.maxLength(120)) }),
  'TenantCreate',
);

export const MemberCreate = named(
  z.strictObject({ email: Email, display_name: DisplayName, role: Role, password: z.optional(NewPassword) }),
  'MemberCreate',
);

export const MemberUpdate = named(z.strictObject({ role: Role }), 'MemberUpdate');

export const MemberListQuery = z.strictObject({ ...pageQuery });
export const TenantListQuery = z.strictObject({ ...pageQuery });
export const InvitationListQuery = z.strictObject({ ...pageQuery });

export const MemberPath = z.object({ tenant_id: text(1, 64), user_id: text(1, 64) });

export const TenantInvitationPath = z.object({ tenant_id: text(1, 64), invitation_id: text(1, 64) });
