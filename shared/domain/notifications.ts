import type * as z from 'zod/mini';
import {
  type FieldError,
  InvalidTransitionError,
  NotFoundError,
  PolicyRejectedError,
} from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import type {
  NotificationChannel,
  NotificationCreate,
  NotificationListQuery,
  ReviewDecision,
  ReviewItemListQuery,
} from '#shared/api/schemas/notifications';
import type {
  NotificationAttemptRead,
  NotificationRead,
  ReviewItemRead,
} from '#shared/api/schemas/responses';
import { type AuditEvent, auditEvent } from './audit';
import { type BackoffSettings, CHANNEL_PROFILES, DELIVERY_BACKOFF } from './channels';
import type { Page, PageRequest } from './ports';

/**
 * The notification delivery path's domain (docs/api.md section 7): the policy check, the outbox
 * event, the backoff schedule, the provider gate decision and the review decisions. No AWS here:
 * the stores, queues and providers are ports implemented in functions/adapters.
 */

export type Channel = z.output<typeof NotificationChannel>;
export type Notification = z.output<typeof NotificationRead>;
export type NotificationStatus = Notification['status'];
export type Attempt = z.output<typeof NotificationAttemptRead>;
export type ReviewItem = z.output<typeof ReviewItemRead>;
export type NotificationFilter = Omit<z.output<typeof NotificationListQuery>, 'limit' | 'cursor'>;
export type ReviewItemFilter = Omit<z.output<typeof ReviewItemListQuery>, 'limit' | 'cursor'>;

/** A tenant's switch for a channel; `undefined` means the tenant never connected it. */
export type ChannelState = 'active' | 'disabled' | undefined;

/** docs/api.md section 7: the envelope every outbox event and queue message carries. */
export interface OutboxEvent {
  event_id: string;
  kind: string;
  tenant_id: string;
  idempotency_key: string;
  occurred_at: string;
  payload: Record<string, unknown>;
}

/** The fields every outbox event carries (docs/api.md section 7), in the order they are listed. */
export const OUTBOX_EVENT_FIELDS = [
  'event_id',
  'kind',
  'tenant_id',
  'idempotency_key',
  'occurred_at',
  'payload',
] as const satisfies readonly (keyof OutboxEvent)[];

/** Stable per notification, so a re-queued notification (review retry) keeps its key. */
export const notificationIdempotencyKey = (tenantId: string, notificationId: string) =>
  `notification:${tenantId}:${notificationId}`;

export const deliveryRequested = (clock: Clock, n: Notification): OutboxEvent => ({
  event_id: newId(),
  kind: EVENT_KINDS.notificationDeliveryRequested,
  tenant_id: n.tenant_id,
  idempotency_key: n.idempotency_key,
  occurred_at: clock.now().toISOString(),
  payload: { notification_id: n.id, channel: n.channel },
});

// --- Policy check ---------------------------------------------------------------------------

const RECIPIENT: Record<Exclude<Channel, 'webhook'>, RegExp> = {
  in_app: /^[0-9a-zA-Z-]{1,64}$/,
  telegram: /^-?\d{1,20}$/,
  email:
    /^[^\s@<>()[\]\\,;:"]{1,64}@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/,
  sms: /^\+[1-9]\d{7,14}$/,
};

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

export interface PolicyContext {
  channelState: ChannelState;
  /** in_app only: is the recipient a member of the tenant? */
  recipientIsMember: boolean;
  /** Local runtime only: webhook targets on http://127.0.0.1 / localhost are acceptable. */
  allowLoopbackWebhooks: boolean;
}

const webhookReasons = (recipient: string, allowLoopback: boolean): string[] => {
  let url: URL;
  try {
    url = new URL(recipient);
  } catch {
    return ['must be an absolute https URL'];
  }
  const loopbackHost = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:' && loopbackHost))
    return ['must be an https URL'];
  if (url.username || url.password) return ['must not carry credentials'];
  if (loopbackHost && !allowLoopback) return ['must not target a loopback host'];
  return [];
};

/**
 * The policy check of docs/api.md section 7: recipient format and body length per channel, the
 * channel enabled for the tenant, no secret-looking content. Returns every reason, not the first.
 */
export function checkPolicy(input: z.output<typeof NotificationCreate>, ctx: PolicyContext): FieldError[] {
  const reasons: FieldError[] = [];
  const profile = CHANNEL_PROFILES[input.channel];
  const add = (path: string, code: string, message: string) => reasons.push({ path, code, message });

  if (input.channel === 'webhook') {
    for (const m of webhookReasons(input.recipient, ctx.allowLoopbackWebhooks))
      add('recipient', 'invalid_recipient', `webhook recipient ${m}`);
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

// --- Retry schedule and failure classes ------------------------------------------------------

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

export type SendResult = { ok: true } | { ok: false; kind: 'transient' | 'permanent'; reason: string };

/** HTTP status to failure class: timeouts, 408, 425, 429 and 5xx are transient; other 4xx permanent. */
export function classifyStatus(status: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 408 || status === 425 || status === 429 || status >= 500)
    return { ok: false, kind: 'transient', reason: `http_${status}` };
  return { ok: false, kind: 'permanent', reason: `http_${status}` };
}

// --- Provider gate ----------------------------------------------------------------------------

export type GateDecision = { open: true } | { open: false; reason: 'not_connected' | 'not_configured' };

/**
 * External channels pass only with an active tenant connection and the private server-side
 * provider configuration present; in_app never leaves the tenant, so its gate is always open.
 */
export function decideGate(channel: Channel, state: ChannelState, configured: boolean): GateDecision {
  if (CHANNEL_PROFILES[channel].gate === null) return { open: true };
  if (state !== 'active') return { open: false, reason: 'not_connected' };
  if (!configured) return { open: false, reason: 'not_configured' };
  return { open: true };
}

// --- Ports ------------------------------------------------------------------------------------

export interface NotificationStore {
  /** The notification, its audit event and (when queued) its outbox item, in one transaction. */
  create(n: Notification, audit: AuditEvent, outbox: OutboxEvent | null): Promise<void>;
  get(tenantId: string, id: string): Promise<Notification | undefined>;
  list(tenantId: string, filter: NotificationFilter, page: PageRequest): Promise<Page<Notification>>;
  channelState(tenantId: string, channel: Channel): Promise<ChannelState>;
  isMember(tenantId: string, userId: string): Promise<boolean>;
  getReviewItem(tenantId: string, id: string): Promise<ReviewItem | undefined>;
  listReviewItems(tenantId: string, filter: ReviewItemFilter, page: PageRequest): Promise<Page<ReviewItem>>;
  /**
   * Writes a decision: the notification (if still `expected`), the review item (if still open),
   * the audit event and the outbox item, in one transaction. False when a condition failed.
   */
  decide(
    n: Notification,
    expected: NotificationStatus,
    review: ReviewItem,
    audit: AuditEvent,
    outbox: OutboxEvent | null,
  ): Promise<boolean>;
}

export interface NotificationDeps {
  notifications: NotificationStore;
  clock: Clock;
  allowLoopbackWebhooks: boolean;
}

// --- Use cases --------------------------------------------------------------------------------

/**
 * Draft a notification.
 * 1. Gather what the policy needs: the tenant's channel state, and for in_app the membership.
 * 2. Run the policy check.
 * 3. Store the draft as `queued` with its `notification.queued` audit event and the outbox event
 *    `notification.delivery.requested` in one transaction; or as `blocked` with its audit event.
 * 4. Blocked: 422 policy_rejected with the reasons; queued: the record (202).
 */
export async function createNotification(
  deps: NotificationDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof NotificationCreate>,
): Promise<Notification> {
  const [channelState, recipientIsMember] = await Promise.all([
    deps.notifications.channelState(tenantId, input.channel),
    input.channel === 'in_app' ? deps.notifications.isMember(tenantId, input.recipient) : false,
  ]);
  const reasons = checkPolicy(input, {
    channelState,
    recipientIsMember,
    allowLoopbackWebhooks: deps.allowLoopbackWebhooks,
  });
  const now = deps.clock.now().toISOString();
  const id = newId();
  const status: NotificationStatus = reasons.length ? 'blocked' : 'queued';
  const n: Notification = {
    id,
    tenant_id: tenantId,
    channel: input.channel,
    recipient: input.recipient,
    subject: input.subject ?? null,
    body: input.body,
    metadata_json: JSON.stringify(input.metadata ?? {}),
    status,
    policy_reasons: reasons.map((r) => r.code),
    idempotency_key: notificationIdempotencyKey(tenantId, id),
    attempts: [],
    review_item_id: null,
    created_by: actor.user_id,
    created_at: now,
    updated_at: now,
    queued_at: status === 'queued' ? now : null,
    delivered_at: null,
  };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: status === 'queued' ? 'notification.queued' : 'notification.blocked',
    actor_id: actor.user_id,
    entity_type: 'notification',
    entity_id: id,
    summary: `${input.channel} notification ${status}`,
    metadata: { channel: input.channel, reasons: n.policy_reasons },
  });
  await deps.notifications.create(n, audit, status === 'queued' ? deliveryRequested(deps.clock, n) : null);
  if (status === 'blocked')
    throw new PolicyRejectedError(reasons, id, `/tenants/${tenantId}/notifications/${id}`);
  return n;
}

export async function getNotification(deps: NotificationDeps, tenantId: string, id: string) {
  const found = await deps.notifications.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listNotifications = (
  deps: NotificationDeps,
  tenantId: string,
  filter: NotificationFilter,
  page: PageRequest,
) => deps.notifications.list(tenantId, filter, page);

export const listReviewItems = (
  deps: NotificationDeps,
  tenantId: string,
  filter: ReviewItemFilter,
  page: PageRequest,
) => deps.notifications.listReviewItems(tenantId, filter, page);

/** Notification statuses a review decision may act on. */
const REVIEWABLE: readonly NotificationStatus[] = ['gated', 'dead_lettered'];

/**
 * Decide a review item.
 * 1. Read the review item (404) and require it open (409 invalid_transition).
 * 2. Read its notification and require it gated or dead-lettered (409).
 * 3. retry: the notification goes back to `queued` with a new outbox event carrying the same
 *    idempotency key; discard: it becomes `discarded`. The review item records the decision.
 * 4. All of it, with the `review_item.decided` audit event, in one conditional transaction: of two
 *    racing decisions exactly one wins, the other is 409.
 */
export async function decideReviewItem(
  deps: NotificationDeps,
  actor: Principal,
  tenantId: string,
  reviewItemId: string,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const review = await deps.notifications.getReviewItem(tenantId, reviewItemId);
  if (!review) throw new NotFoundError();
  if (review.status !== 'open')
    throw new InvalidTransitionError(`The review item is already ${review.status}.`);
  const n = await deps.notifications.get(tenantId, review.notification_id);
  if (!n) throw new NotFoundError();
  if (!REVIEWABLE.includes(n.status))
    throw new InvalidTransitionError(`A notification that is ${n.status} cannot be ${decision.action}ed.`);
  const now = deps.clock.now().toISOString();
  const retry = decision.action === 'retry';
  const next: Notification = {
    ...n,
    status: retry ? 'queued' : 'discarded',
    updated_at: now,
    queued_at: retry ? now : n.queued_at,
  };
  const decided: ReviewItem = {
    ...review,
    status: retry ? 'retried' : 'discarded',
    decision: decision.action,
    note: decision.note ?? null,
    decided_by: actor.user_id,
    decided_at: now,
    updated_at: now,
  };
  const won = await deps.notifications.decide(
    next,
    n.status,
    decided,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'review_item.decided',
      actor_id: actor.user_id,
      entity_type: 'review_item',
      entity_id: review.id,
      summary: `${decision.action} ${n.channel} notification ${n.id}`,
      metadata: { action: decision.action, notification_id: n.id, note: decision.note ?? null },
    }),
    retry ? deliveryRequested(deps.clock, next) : null,
  );
  if (!won) throw new InvalidTransitionError('The review item or its notification changed meanwhile.');
  return decided;
}

export const newAttempt = (
  n: Notification,
  at: string,
  outcome: Attempt['outcome'],
  reason: string | null,
  latencyMs: number | null,
): Attempt => ({ attempt: n.attempts.length + 1, at, outcome, reason, latency_ms: latencyMs });
