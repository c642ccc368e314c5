import * as z from 'zod/mini';
import { DisplayName, Email, NewPassword, Role } from './auth';
import { isTimeZone } from '#shared/kernel/time-zone';
import { tenantEditable } from '#shared/table/entities/tenant';
import { memberEditable } from '#shared/table/entities/member';
import { describe, named, pageQuery, text, textRule } from './common';
import { patchSchema } from './patch';

export const TenantId = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must match ^[a-z0-9][a-z0-9-]{1,62}$'));

const TenantName = z.string().check(z.trim(), z.minLength(2), z.maxLength(120), textRule('name'));

export const TenantCreate = named(z.strictObject({ id: TenantId, name: TenantName }), 'TenantCreate');

/** An IANA time zone name (docs/api.md section 9.7): `Europe/Berlin`, `UTC`. */
export const TimeZone = describe(
  z.string().check(
    z.maxLength(64),
    z.refine(isTimeZone, {
      message: 'must be an IANA time zone name, like Europe/Berlin',
      params: { code: 'invalid_time_zone' },
    }),
  ),
  'An IANA time zone name, like Europe/Berlin or UTC.',
);

/** The fields `tenantEditable` declares (shared/table/entities/tenant.ts), each optional. */
export const TenantUpdate = named(
  patchSchema(tenantEditable, { name: TenantName, timezone: TimeZone }),
  'TenantUpdate',
);

export const MemberCreate = named(
  z.strictObject({ email: Email, display_name: DisplayName, role: Role, password: z.optional(NewPassword) }),
  'MemberCreate',
);

/** The role `memberEditable` declares (shared/table/entities/member.ts), required. */
export const MemberUpdate = named(patchSchema(memberEditable, { role: Role }), 'MemberUpdate');

export const MemberListQuery = z.strictObject({ ...pageQuery });
export const TenantListQuery = z.strictObject({ ...pageQuery });
export const InvitationListQuery = z.strictObject({ ...pageQuery });

export const MemberPath = z.object({ tenant_id: text(1, 64), user_id: text(1, 64) });

export const TenantInvitationPath = z.object({ tenant_id: text(1, 64), invitation_id: text(1, 64) });
