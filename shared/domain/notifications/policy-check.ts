import { CHANNEL_ADDRESS } from '#shared/kernel/addresses';
import type { FieldError } from '#shared/kernel/errors';
import { webhookUrlProblem } from '#shared/domain/integrations/webhook-target';
import { CHANNEL_PROFILES } from './channels';
import type { Channel, ChannelState } from './ports';

/**
 * The policy check a draft passes before it may be queued (docs/api.md section 7). Pure: the use
 * case gathers what it needs (the tenant's channel state, the recipient's membership) first.
 */

const RECIPIENT: Record<Exclude<Channel, 'webhook'>, RegExp> = CHANNEL_ADDRESS;

/** Content that looks like a credential never leaves the system. */
const SECRET_PATTERNS: [string, RegExp][] = [
  ['aws_access_key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['private_key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['bearer_token', /\bbearer\s+[A-Za-z0-9._~+/-]{20,}/i],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  [
    'api_key',
    /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  ],
  ['bot_token', /\b\d{8,10}:[A-Za-z0-9_-]{35}\b/],
  ['password_assignment', /\b(?:password|passwd|secret|api[_-]?key)\s*[:=]\s*\S{6,}/i],
];

/** What the check reads of a draft: its recipient is the address it goes to (a member's, resolved). */
export interface PolicyInput {
  channel: Channel;
  recipient: string;
  subject?: string | null | undefined;
  body: string;
  metadata?: Record<string, unknown> | undefined;
}

export interface PolicyContext {
  channelState: ChannelState;
  /** in_app only: is the recipient a member of the tenant? */
  recipientIsMember: boolean;
  /** Local runtime only: webhook targets on http://127.0.0.1 / localhost are acceptable. */
  allowLoopback: boolean;
}

/**
 * The policy check of docs/api.md section 7: recipient format and body length per channel, the
 * channel enabled for the tenant, no secret-looking content. Returns every reason, not the first.
 */
export function checkPolicy(input: PolicyInput, ctx: PolicyContext): FieldError[] {
  const reasons: FieldError[] = [];
  const profile = CHANNEL_PROFILES[input.channel];
  const add = (path: string, code: string, message: string) => reasons.push({ path, code, message });

  if (input.channel === 'webhook') {
    // The hub's own classifier: a recipient is refused here exactly when a connection URL would be.
    const problem = webhookUrlProblem(input.recipient, ctx.allowLoopback);
    if (problem) add('recipient', 'invalid_recipient', `webhook recipient ${problem.message}`);
  } else if (!RECIPIENT[input.channel].test(input.recipient)) {
    add('recipient', 'invalid_recipient', `recipient must be ${profile.recipientFormat}`);
  } else if (input.channel === 'in_app' && !ctx.recipientIsMember) {
    add('recipient', 'invalid_recipient', 'recipient must be a member of the tenant');
  }
  if (input.body.length > profile.maxBodyChars)
    add('body', 'body_too_long', `body is limited to ${profile.maxBodyChars} characters on ${input.channel}`);
  if (profile.subject === 'required' && !input.subject)
    add('subject', 'subject_required', `${input.channel} needs a subject`);
  if (ctx.channelState === 'disabled')
    add('channel', 'channel_disabled', `the ${input.channel} channel is disabled for this tenant`);
  const text = [input.subject ?? '', input.body, JSON.stringify(input.metadata ?? {})].join('\n');
  for (const [name, pattern] of SECRET_PATTERNS) {
    if (pattern.test(text)) add('body', 'secret_like_content', `content looks like a secret (${name})`);
  }
  return reasons;
}
