import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { RATE_LIMIT_FAILURES } from './fields';

export const sms: AdapterDeclaration = {
  key: 'sms',
  name: 'SMS (Amazon SNS)',
  status: 'available',
  category: 'notification',
  direction: 'outbound',
  purpose: 'Sends notifications as text messages to E.164 phone numbers.',
  channel: 'sms',
  capabilities: ['send_message', 'sender_id'],
  config: z.strictObject({
    sender_id: z.optional(
      z
        .string()
        .check(
          z.regex(/^(?=.*[A-Za-z])[A-Za-z0-9]{1,11}$/, 'must be 1 to 11 letters or digits, not only digits'),
        ),
    ),
    sms_type: z.optional(z.enum(['Transactional', 'Promotional'])),
  }),
  config_example: { sender_id: 'ACME', sms_type: 'Transactional' },
  probe: { endpoint: 'https://sns.{region}.amazonaws.com' },
  secret: null,
  auth: {
    type: 'service_role',
    secret_fields: [],
    notes: 'Sent under the service role: SNS publishes to the phone number directly, never to a topic.',
  },
  scopes: { supported: ['messages.send'], default: ['messages.send'] },
  required_mapping_keys: [],
  mapping_example: {},
  failure_modes: ['opted_out', 'invalid_number', 'spend_limit_reached', ...RATE_LIMIT_FAILURES],
  operations: [
    {
      name: 'send_sms',
      request: 'SNS Publish (PhoneNumber)',
      scope: 'messages.send',
      batch_size: 1,
      rate_limit: { concurrent: 5, per_minute: 1200 },
      idempotency: { strategy: 'consumer_claim', key: 'the delivery event idempotency_key' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['opted_out', 'invalid_number', 'spend_limit_reached'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['phone_number', 'message'],
    properties: { phone_number: { type: 'string' }, message: { type: 'string', maxLength: 1600 } },
  },
  public_notes: ['The recipient of an sms notification is an E.164 number (+ and 8 to 15 digits).'],
};
