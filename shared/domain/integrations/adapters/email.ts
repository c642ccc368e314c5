import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { emailAddress, RATE_LIMIT_FAILURES } from './fields';

export const email: AdapterDeclaration = {
  key: 'email',
  name: 'E-mail (Amazon SES)',
  status: 'available',
  category: 'notification',
  direction: 'outbound',
  purpose: 'Sends notifications as plain-text e-mail from a sender address the tenant has verified.',
  channel: 'email',
  capabilities: ['send_message', 'reply_to', 'configuration_set'],
  config: z.strictObject({
    from_address: emailAddress,
    reply_to: z.optional(emailAddress),
    configuration_set: z.optional(
      z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -')),
    ),
  }),
  config_example: { from_address: 'billing@acme.example', reply_to: 'support@acme.example' },
  probe: { endpoint: 'https://email.{region}.amazonaws.com' },
  secret: null,
  auth: {
    type: 'service_role',
    secret_fields: [],
    notes: 'Sent under the service role; from_address must be an identity verified in the service account.',
  },
  scopes: { supported: ['messages.send'], default: ['messages.send'] },
  required_mapping_keys: [],
  mapping_example: {},
  failure_modes: ['sender_not_verified', 'message_rejected', 'account_suspended', ...RATE_LIMIT_FAILURES],
  operations: [
    {
      name: 'send_email',
      request: 'SESv2 SendEmail',
      scope: 'messages.send',
      batch_size: 1,
      rate_limit: { concurrent: 10, per_minute: 840 },
      idempotency: { strategy: 'consumer_claim', key: 'the delivery event idempotency_key' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['sender_not_verified', 'message_rejected', 'account_suspended'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['to', 'subject', 'body'],
    properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
  },
  public_notes: ['An e-mail notification needs a subject.', 'No secret: the connection holds no credential.'],
};
