import { type FieldError, ValidationError } from '#shared/kernel/errors';
import type { Channel, MemberRecipient, NotificationStore } from './ports';

/**
 * Notifications to members (docs/api.md section 7.2): the address a channel uses for a member.
 * `in_app` goes to the member's inbox; an external channel to the member's contact for it, the
 * email to the account's own address unless the member gave another; a webhook has no member
 * address.
 */

/** The member's address on `channel`, or null when they have none (the draft is blocked `no_contact`). */
export function memberAddress(channel: Channel, userId: string, member: MemberRecipient): string | null {
  const contacts = member.preferences?.contacts ?? {};
  switch (channel) {
    case 'in_app':
      return userId;
    case 'email':
      return contacts.email ?? member.email;
    case 'sms':
      return contacts.sms ?? null;
    case 'telegram':
      return contacts.telegram ?? null;
    case 'webhook':
      return null;
  }
}

export const noContact = (channel: Channel): FieldError => ({
  path: 'recipient_user_id',
  code: 'no_contact',
  message: `the member has no ${channel} contact`,
});

/** The member a draft names, read with their preferences; a non-member is 422 and nothing is stored. */
export async function readMember(
  store: Pick<NotificationStore, 'memberRecipient'>,
  tenantId: string,
  userId: string,
): Promise<MemberRecipient> {
  const member = await store.memberRecipient(tenantId, userId);
  if (!member)
    throw new ValidationError([
      { path: 'recipient_user_id', code: 'not_a_member', message: 'must be a member of the tenant' },
    ]);
  return member;
}
