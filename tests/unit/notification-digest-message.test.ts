import { describe, expect, it } from 'vitest';
import {
  DIGEST_LISTED,
  DIGEST_TRIES,
  digestMessage,
  holdForDigest,
} from '#shared/domain/notifications/digest';
import {
  DEFAULT_DEDUPE_WINDOW_MINUTES,
  dedupeClaim,
  digestTimer,
  releaseTimer,
  slotOf,
  withStep,
} from '#shared/domain/notifications/holds';
import type { DigestEntry, DigestStore, DigestWrite, Notification } from '#shared/domain/notifications/ports';
import { auditEvent } from '#shared/domain/audit';
import { heldNotification } from '#tests/support/fixtures';

/**
 * The digest message and the holds' keys, pure (docs/api.md sections 7.3 and 7.4): what a
 * digest's message says for its channel, how its lines are cut, and the slots, windows and
 * timers that hold a notification back.
 */

const AT = '2031-03-02T09:15:00.000Z';

const held = heldNotification;

const entry = (i: number, over: Partial<DigestEntry> = {}): DigestEntry => ({
  notification_id: `n-${i}`,
  subject: null,
  body: `Stock low on item ${i}`,
  category: 'tasks',
  created_at: '2031-03-02T09:00:00.000Z',
  ...over,
});

describe('the digest message', () => {
  it('is a queued notification under the digest id, to the same recipient, listing its entries', () => {
    const first = held({ recipient_user_id: 'u-1' });
    const m = digestMessage(first, [entry(1), entry(2)], AT);
    expect(m).toEqual({
      ...first,
      id: 'digest-1',
      category: 'tasks',
      subject: null,
      body: '2 notifications:\n- Stock low on item 1\n- Stock low on item 2',
      metadata_json: JSON.stringify({ digest_key: 'stock', count: 2, notification_ids: ['n-1', 'n-2'] }),
      status: 'queued',
      idempotency_key: 'notification:t-1:digest-1',
      created_by: null,
      created_at: AT,
      updated_at: AT,
      queued_at: AT,
      digest_key: null,
      digest_id: null,
    });
  });

  it('has a subject where the channel uses one, and the category of its entries only when they share one', () => {
    const email = held({ channel: 'email', recipient: 'ops@example.org', subject: 'Stock low' });
    const mixed = digestMessage(email, [entry(1), entry(2, { category: 'exceptions' })], AT);
    expect(mixed).toMatchObject({ subject: 'Digest: 2 notifications', category: 'general' });
    expect(digestMessage(held({ channel: 'in_app' }), [entry(1)], AT)).toMatchObject({
      subject: 'Digest: 1 notifications',
      category: 'tasks',
      body: '1 notification:\n- Stock low on item 1',
    });
  });

  it("lists each entry's subject, or its body's first line, cut at 120 characters", () => {
    const long = 'x'.repeat(130);
    const m = digestMessage(
      held({ channel: 'email' }),
      [
        entry(1, { subject: '  Pallet 7 damaged  ', body: 'ignored' }),
        entry(2, { body: '  Second line follows\nnot this one' }),
        entry(3, { body: long }),
        entry(4, { body: 'y'.repeat(120) }),
      ],
      AT,
    );
    expect(m.body.split('\n')).toEqual([
      '4 notifications:',
      '- Pallet 7 damaged',
      '- Second line follows',
      `- ${'x'.repeat(119)}…`,
      `- ${'y'.repeat(120)}`,
    ]);
  });

  it(`lists at most ${DIGEST_LISTED}, and only as many as the channel's body limit takes, counting the rest`, () => {
    const many = Array.from({ length: DIGEST_LISTED + 2 }, (_, i) => entry(i));
    const email = digestMessage(held({ channel: 'email' }), many, AT);
    expect(email.body.split('\n')).toHaveLength(DIGEST_LISTED + 2);
    expect(email.body.endsWith('\nand 2 more')).toBe(true);
    expect(JSON.parse(email.metadata_json).notification_ids).toHaveLength(DIGEST_LISTED);

    // SMS: 918 characters. Each line here is 122 characters long with its newline.
    const wide = Array.from({ length: 10 }, (_, i) => entry(i, { body: `${i}`.padEnd(120, '.') }));
    const sms = digestMessage(held(), wide, AT);
    const room = 918 - '10 notifications:'.length - ' and 10 more'.length - 1;
    const fits = Math.floor(room / 122);
    expect(sms.body.split('\n')).toHaveLength(1 + fits + 1);
    expect(sms.body.endsWith(`\nand ${10 - fits} more`)).toBe(true);
    expect(sms.body.length).toBeLessThanOrEqual(918);
    expect(JSON.parse(sms.metadata_json).notification_ids).toEqual(
      wide.slice(0, fits).map((e) => e.notification_id),
    );
  });

  it('a line that exactly fills the room is listed; one character more is not', () => {
    // SMS, nine entries: 918 - "9 notifications:" - " and 9 more" - 1 = 890 characters of room;
    // each line takes its text ("- " and the body) and a newline.
    const eight = Array.from({ length: 8 }, (_, i) => entry(i, { body: `${i}`.padEnd(98, '.') }));
    const fits = digestMessage(held(), [...eight, entry(8, { body: 'z'.repeat(79) })], AT);
    expect(fits.body.split('\n')).toHaveLength(10);
    expect(fits.body).not.toContain('more');
    const over = digestMessage(held(), [...eight, entry(8, { body: 'z'.repeat(80) })], AT);
    expect(over.body.split('\n')).toHaveLength(10);
    expect(over.body.endsWith('\nand 1 more')).toBe(true);
  });
});

describe('the holds', () => {
  it('a slot is one per channel, recipient and key; a member is one recipient whatever the address', () => {
    expect(slotOf(held(), 'stock')).toBe('sms#to:+4915112345678#stock');
    expect(slotOf(held({ recipient_user_id: 'u-1' }), 'stock')).toBe('sms#user:u-1#stock');
    expect(slotOf(held({ recipient_user_id: 'u-1', recipient: 'other' }), 'stock')).toBe(
      'sms#user:u-1#stock',
    );
  });

  it('a dedupe claim holds its window from the creation, 60 minutes unless told', () => {
    const n = held({ created_at: '2031-03-02T09:00:00.000Z' });
    expect(dedupeClaim(n, undefined, 5)).toBeNull();
    expect(dedupeClaim(n, 'k', undefined)).toEqual({
      tenant_id: 't-1',
      slot: 'sms#to:+4915112345678#k',
      notification_id: 'n-1',
      expires_at: new Date(Date.parse(n.created_at) + DEFAULT_DEDUPE_WINDOW_MINUTES * 60_000).toISOString(),
      now: n.created_at,
    });
    expect(dedupeClaim(n, 'k', 5)?.expires_at).toBe('2031-03-02T09:05:00.000Z');
  });

  it('the release and digest timers name their kind, subject and time', () => {
    expect(releaseTimer(held(), AT)).toEqual({
      id: 'notification_release:n-1',
      tenant_id: 't-1',
      kind: 'notification_release',
      subject_type: 'notification',
      subject_id: 'n-1',
      due_at: AT,
    });
    expect(digestTimer('t-1', 'digest-1', AT)).toMatchObject({
      kind: 'notification_digest',
      subject_type: 'digest',
      subject_id: 'digest-1',
      due_at: AT,
    });
  });

  it('a step adds one numbered attempt without latency, with the change', () => {
    const n = held({
      attempts: [{ attempt: 1, at: 'x', outcome: 'digesting', reason: 'digest', latency_ms: null }],
    });
    expect(withStep(n, AT, 'digested', null, { status: 'digested' })).toMatchObject({
      status: 'digested',
      updated_at: AT,
      attempts: [n.attempts[0], { attempt: 2, at: AT, outcome: 'digested', reason: null, latency_ms: null }],
    });
  });
});

describe('holding for a digest against other writers', () => {
  const clock = { now: () => new Date(AT) };
  const auditOf = (n: Notification) =>
    auditEvent(clock, {
      tenant_id: n.tenant_id,
      event_type: `notification.${n.status}`,
      actor_id: null,
      entity_type: 'notification',
      entity_id: n.id,
      summary: 'held',
    });
  /** A slot store whose every open answers `answer` (another writer always first), counting tries. */
  const losing = (answer: DigestWrite) => {
    const store = {
      tries: 0,
      slot: async () => undefined,
      open: async () => (store.tries++, answer),
      join: async () => (store.tries++, answer),
    };
    return store as typeof store & DigestStore;
  };

  it(`gives up after ${DIGEST_TRIES} tries on a slot that stays contended`, async () => {
    const store = losing('taken');
    await expect(holdForDigest(store, held(), 15, null, auditOf)).rejects.toThrow(
      'digest slot sms#to:+4915112345678#stock stayed contended',
    );
    expect(store.tries).toBe(DIGEST_TRIES);
  });

  it('answers the holder of the dedupe window at once, writing nothing more', async () => {
    const store = losing({ duplicate_of: 'n-0' });
    expect(await holdForDigest(store, held(), 15, null, auditOf)).toEqual({ duplicate_of: 'n-0' });
    expect(store.tries).toBe(1);
  });
});
