import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type {
  NotificationChannel,
  NotificationListQuery,
  ReviewDecision,
  ReviewItemListQuery,
} from '#shared/api/schemas/notifications';
import type {
  NotificationAttemptRead,
  NotificationRead,
  ReviewItemRead,
} from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { Preferences } from '#shared/domain/preferences/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/timer';

/**
 * The ports of the notification delivery path (docs/api.md section 7) and the records they
 * carry: the store the API's use cases call, and the store and providers the worker calls. No
 * AWS here: functions/adapters implements them on DynamoDB, SES, SNS, the Telegram Bot API and
 * signed webhooks; the tenant's connections come through the integration hub's reader.
 */

export type Channel = z.output<typeof NotificationChannel>;
export type Notification = z.output<typeof NotificationRead>;
export type NotificationStatus = Notification['status'];
export type Attempt = z.output<typeof NotificationAttemptRead>;
export type ReviewItem = z.output<typeof ReviewItemRead>;
export type NotificationFilter = Omit<z.output<typeof NotificationListQuery>, 'limit' | 'cursor'>;
export type ReviewItemFilter = Omit<z.output<typeof ReviewItemListQuery>, 'limit' | 'cursor'>;

/** Decides an open review item of a kind other than `notification` (its own concern's use case). */
export type ReviewDecider = (
  actor: Principal,
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
) => Promise<ReviewItem>;

/** A member a notification names: their account's email and their preferences in the tenant. */
export interface MemberRecipient {
  email: string;
  preferences: Preferences | null;
  /** The zone of their quiet hours: their own, else the tenant's (read only when they have quiet hours). */
  timeZone?: string;
}

/**
 * A deduplication key's hold on its window (docs/api.md section 7.4): one per key, channel and
 * recipient (`slot`), taken by the first notification accepted, until `expires_at`.
 */
export interface DedupeClaim {
  tenant_id: string;
  slot: string;
  notification_id: string;
  expires_at: string;
  now: string;
}

/** What a draft's acceptance also writes, in its transaction. */
export interface DraftHolds {
  /** A `scheduled` notification's release at the end of the quiet hours. */
  timer?: Timer | null;
  dedupe?: DedupeClaim | null;
}

/** `duplicate`: the dedupe key's window is held by `duplicate_of`; nothing was written. */
export type CreateResult = { ok: true } | { ok: false; duplicate_of: string };

/** The open digest of a digest key, channel and recipient (`slot`): its id and when it closes. */
export interface DigestSlot {
  tenant_id: string;
  slot: string;
  digest_id: string;
  closes_at: string;
}

/** `taken`/`closed`: the slot is not as expected (another opened it, or it closed); nothing written. */
export type DigestWrite = 'ok' | 'taken' | 'closed' | { duplicate_of: string };

/** A held notification as the digest lists it. */
export interface DigestEntry {
  notification_id: string;
  subject: string | null;
  body: string;
  category: Notification['category'];
  created_at: string;
}

export interface DigestStore {
  slot(tenantId: string, slot: string): Promise<DigestSlot | undefined>;
  /**
   * Opens the slot's digest with `n` as its first entry (the slot free or its window over), arming
   * `timer` at its close, with the notification and its audit event, in one transaction.
   */
  open(
    n: Notification,
    audit: AuditEvent,
    slot: DigestSlot,
    timer: Timer,
    dedupe: DedupeClaim | null,
  ): Promise<DigestWrite>;
  /** Adds `n` to the slot's digest while it is still that one and open, in one transaction. */
  join(
    n: Notification,
    audit: AuditEvent,
    slot: DigestSlot,
    dedupe: DedupeClaim | null,
  ): Promise<DigestWrite>;
  /** Frees the slot if it still holds `digestId`: no notification joins that digest after this. */
  close(tenantId: string, slot: string, digestId: string): Promise<void>;
  entries(tenantId: string, digestId: string): Promise<DigestEntry[]>;
  /** The digest message (queued, its audit and outbox event); false when it exists already. */
  createMessage(n: Notification, audit: AuditEvent, outbox: OutboxEvent): Promise<boolean>;
  /** A held notification's move to `digested` (or `queued` on release), if still `expected`, with its audit event. */
  moveHeld(
    n: Notification,
    expected: NotificationStatus,
    audit: AuditEvent,
    outbox: OutboxEvent | null,
  ): Promise<boolean>;
}

/** A tenant's switch for a channel; `undefined` means the tenant never connected it. */
export type ChannelState = 'active' | 'disabled' | undefined;

export interface NotificationStore {
  /** The notification, its audit event and (when queued) its outbox item, in one transaction. */
  create(
    n: Notification,
    audit: AuditEvent,
    outbox: OutboxEvent | null,
    holds?: DraftHolds,
  ): Promise<CreateResult>;
  get(tenantId: string, id: string): Promise<Notification | undefined>;
  list(tenantId: string, filter: NotificationFilter, page: PageRequest): Promise<Page<Notification>>;
  channelState(tenantId: string, channel: Channel): Promise<ChannelState>;
  isMember(tenantId: string, userId: string): Promise<boolean>;
  /** The member's email, preferences and their zone; undefined when the user is no member of the tenant. */
  memberRecipient(tenantId: string, userId: string): Promise<MemberRecipient | undefined>;
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

export type ClaimResult = 'claimed' | 'done' | 'busy';

export interface DeliveryStore {
  get(tenantId: string, id: string): Promise<Notification | undefined>;
  /**
   * Claims `key` until `leaseUntil` and marks the notification `delivering`, in one transaction.
   * `done`: already consumed; `busy`: another worker holds an unexpired claim.
   */
  claim(n: Notification, key: string, leaseUntil: string, now: string): Promise<ClaimResult>;
  /**
   * `delivered` + audit (+ in_app inbox item) + claim completed, in one transaction. With
   * `claimAt`, the key is claimed in that same transaction, as `claim` would at that time (a
   * channel whose delivery is this write, in_app); it then answers as `claim` does, `claimed`
   * meaning delivered, and writes nothing unless claimed.
   */
  delivered(n: Notification, audit: AuditEvent, key: string, claimAt?: string): Promise<ClaimResult>;
  /** Any other outcome: the notification (+ a review item) + audit, releasing the claim. */
  failed(n: Notification, audit: AuditEvent, key: string, review: ReviewItem | null): Promise<void>;
  /** Best effort: closes a review item left open when a redriven message got delivered. */
  resolveReview(tenantId: string, reviewItemId: string, at: string): Promise<void>;
}

/**
 * What a send needs from the tenant's connection of the channel (docs/api.md section 9.3): its
 * non-secret config and its secret, read from private storage for this send only. Never leaves
 * the worker.
 */
export interface ProviderConnection {
  config: Record<string, unknown>;
  secret: Record<string, string> | undefined;
}

export type SendResult = { ok: true } | { ok: false; kind: 'transient' | 'permanent'; reason: string };

export interface ProviderSender {
  send(n: Notification, connection: ProviderConnection): Promise<SendResult>;
}
