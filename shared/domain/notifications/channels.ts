import { QUEUES, type QueueName } from '#shared/kernel/names';
import type { Channel, SendResult } from './ports';

/**
 * The delivery channels and the retry policy (docs/api.md section 7): the per-channel limits the
 * policy check applies, the queue each channel travels on, the attempts and backoff the workers
 * apply, and which provider answers are worth a retry. The domain owns them; the public delivery
 * contract (`shared/demo/delivery.ts`) and the demos read them from here.
 */

/** Attempts a delivery message gets on a queue before it moves to the queue's dead-letter queue. */
export const DELIVERY_MAX_ATTEMPTS = 5;

export interface BackoffSettings {
  baseSeconds: number;
  capSeconds: number;
}

/** Backoff between attempts: exponential from `baseSeconds`, capped, with jitter (`backoffSeconds`). */
export const DELIVERY_BACKOFF: Readonly<BackoffSettings> = { baseSeconds: 2, capSeconds: 300 };

/**
 * Seconds before attempt `receiveCount + 1`: exponential (base * 2^(n-1)), capped, with "equal
 * jitter" (uniform in the upper half) so retries of one outage spread out but never retry at once.
 */
export function backoffSeconds(
  receiveCount: number,
  settings: BackoffSettings = DELIVERY_BACKOFF,
  random: () => number = Math.random,
): number {
  const n = Math.max(1, receiveCount);
  const exp = Math.min(settings.capSeconds, settings.baseSeconds * 2 ** (n - 1));
  return Math.max(1, Math.ceil(exp / 2 + random() * (exp / 2)));
}

/** HTTP status to failure class: timeouts, 408, 425, 429 and 5xx are transient; other 4xx permanent. */
export function classifyStatus(status: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 408 || status === 425 || status === 429 || status >= 500)
    return { ok: false, kind: 'transient', reason: `http_${status}` };
  return { ok: false, kind: 'permanent', reason: `http_${status}` };
}

export interface ChannelProfile {
  label: string;
  direction: 'internal' | 'external';
  queue: QueueName;
  adapter: string;
  /** Name of the provider gate; `null` for channels that leave nothing to a provider. */
  gate: string | null;
  recipientFormat: string;
  maxBodyChars: number;
  subject: 'required' | 'optional' | 'not used';
  transport: string;
}

/**
 * The five channel adapter profiles: the limits the policy check applies per channel and the
 * queue each channel travels on.
 */
export const CHANNEL_PROFILES: Record<Channel, ChannelProfile> = {
  in_app: {
    label: 'In-app inbox',
    direction: 'internal',
    queue: QUEUES.internal,
    adapter: 'in-app inbox writer',
    gate: null,
    recipientFormat: 'a member user id of the tenant',
    maxBodyChars: 2000,
    subject: 'optional',
    transport: 'item in the tenant table, read by the member inbox',
  },
  telegram: {
    label: 'Telegram bot message',
    direction: 'external',
    queue: QUEUES.external,
    adapter: 'Telegram Bot API adapter',
    gate: 'telegram-connection',
    recipientFormat: 'numeric chat id (optionally negative for groups)',
    maxBodyChars: 4096,
    subject: 'not used',
    transport: 'HTTPS call to the bot API with the private bot configuration',
  },
  email: {
    label: 'Email',
    direction: 'external',
    queue: QUEUES.external,
    adapter: 'transactional email adapter',
    gate: 'email-connection',
    recipientFormat: 'a single mailbox address (local@domain)',
    maxBodyChars: 20000,
    subject: 'required',
    transport: 'HTTPS call to the tenant email provider',
  },
  sms: {
    label: 'SMS',
    direction: 'external',
    queue: QUEUES.external,
    adapter: 'SMS gateway adapter',
    gate: 'sms-connection',
    recipientFormat: 'E.164 number: + and 8 to 15 digits',
    maxBodyChars: 918,
    subject: 'not used',
    transport: 'HTTPS call to the tenant SMS gateway (up to 6 concatenated segments)',
  },
  webhook: {
    label: 'Signed webhook',
    direction: 'external',
    queue: QUEUES.external,
    adapter: 'Standard Webhooks sender',
    gate: 'webhook-endpoint',
    recipientFormat: 'https URL on a public host (no private, loopback or link-local address)',
    maxBodyChars: 65536,
    subject: 'not used',
    transport: 'HTTPS POST signed with webhook-id, webhook-timestamp and webhook-signature headers',
  },
};
