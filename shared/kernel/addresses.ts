/**
 * The address formats of the channels that take one (docs/api.md section 7): the policy check
 * tests a notification's recipient against them, the preferences a member's contacts.
 */
export const CHANNEL_ADDRESS = {
  in_app: /^[0-9a-zA-Z-]{1,64}$/,
  telegram: /^-?\d{1,20}$/,
  email:
    /^[^\s@<>()[\]\\,;:"]{1,64}@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/,
  sms: /^\+[1-9]\d{7,14}$/,
} as const;
