import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { RATE_LIMIT_FAILURES } from './fields';

export const telegram: AdapterDeclaration = {
  key: 'telegram',
  name: 'Telegram Bot API',
  status: 'available',
  category: 'notification',
  direction: 'outbound',
  purpose: 'Sends notifications as messages of a Telegram bot the tenant owns, to chats that started it.',
  channel: 'telegram',
  capabilities: ['send_message', 'group_chats'],
  config: z.strictObject({
    disable_notification: z.optional(z.boolean()),
  }),
  config_example: { disable_notification: false },
  probe: { endpoint: 'https://api.telegram.org' },
  secret: z.strictObject({
    bot_token: z
      .string()
      .check(z.regex(/^\d{5,12}:[A-Za-z0-9_-]{30,64}$/, 'must be a bot token as BotFather issues it')),
  }),
  auth: {
    type: 'bot_token',
    secret_fields: ['bot_token'],
    notes: 'The token BotFather issued for the tenant bot; sent only to the Bot API, in the request path.',
  },
  scopes: { supported: ['messages.send'], default: ['messages.send'] },
  required_mapping_keys: [],
  mapping_example: {},
  failure_modes: ['invalid_credentials', 'chat_not_found', 'bot_blocked', ...RATE_LIMIT_FAILURES],
  operations: [
    {
      name: 'send_message',
      request: 'POST /bot<token>/sendMessage',
      scope: 'messages.send',
      batch_size: 1,
      rate_limit: { concurrent: 5, per_minute: 1800 },
      idempotency: { strategy: 'consumer_claim', key: 'the delivery event idempotency_key' },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['invalid_credentials', 'chat_not_found', 'bot_blocked'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['chat_id', 'text'],
    properties: { chat_id: { type: 'string' }, text: { type: 'string', maxLength: 4096 } },
  },
  public_notes: [
    'The recipient of a telegram notification is the numeric chat id.',
    'Telegram has no idempotency key: the worker claim on the event key keeps a message from being sent twice.',
  ],
};
