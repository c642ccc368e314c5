import * as z from 'zod/mini';
import { ROLES } from '#shared/kernel/policy';
import { named, text, textRule } from './common';

export const Role = named(z.enum(ROLES), 'Role');

export const Email = z.email().check(z.maxLength(254));
export const DisplayName = z.string().check(z.trim(), z.minLength(1), z.maxLength(120), textRule('name'));
/** New passwords: at least 12 characters (docs/api.md section 3). */
export const NewPassword = text(12, 256);

export const SessionCreate = named(
  z.strictObject({ email: text(1, 254), password: text(1, 256) }),
  'SessionCreate',
);

export const SessionPath = z.object({ token_id: text(1, 128) });

export const InvitationPath = z.object({ invitation_id: text(1, 64) });
