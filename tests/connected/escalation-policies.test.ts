import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { EscalationPolicyCreate, EscalationPolicyUpdate } from '#shared/api/schemas/escalation-policies';
import { createPolicy, deletePolicy, getPolicy, updatePolicy } from '#shared/domain/escalation/use-cases';
import { changeExceptionStatus, createException, getException } from '#shared/domain/exceptions/use-cases';
import { ConflictError, ValidationError } from '#shared/kernel/errors';
import { type Clock } from '#shared/kernel/ids';
import { audit, drain, login, membership, principal, tenant } from '#tests/support/fixtures';
import { freshDb } from '#tests/support/db';

/**
 * Escalation policies on DynamoDB Local (docs/api.md, "Escalation policies"): the bounds refuse
 * bad input before anything is stored, PATCH goes by version, and an exception's create attaches
 * the enabled policy with the lowest priority that fits, with its first level's timer, in the
 * create's own transaction.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const t = tenant();
const owner = principal('owner-1', { [t.id]: 'owner' });
const member = login();
const START = '2031-05-01T09:00:00.000Z';
const clock: Clock & { set(iso: string): void } = (() => {
  let at = Date.parse(START);
  return { now: () => new Date(at), set: (iso: string) => void (at = Date.parse(iso)) };
})();

const policyDeps = () => ({ policies: escalationPolicyStore(db), members: memberDirectory(db), clock });
const exceptionDeps = () => ({ exceptions: stores.exceptions, policies: escalationPolicyStore(db), clock });

const body = (over: Record<string, unknown> = {}) =>
  z.parse(EscalationPolicyCreate, {
    name: 'Critical payments',
    levels: [{ after_minutes: 15, notify: [{ channel: 'email', recipient: 'ops@example.test' }] }],
    ...over,
  });

const raise = (severity: 'info' | 'warning' | 'critical', exception_type = 'payment.failed') =>
  createException(exceptionDeps(), owner, t.id, {
    exception_type,
    subject_type: 'invoice',
    subject_id: 'INV-1',
    title: 'Payment failed',
    summary: 'The card was declined',
    severity,
  });

const issues = (schema: z.ZodMiniType, input: unknown) => {
  const r = z.safeParse(schema, input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.code}`);
};

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  await stores.identity.createUser(member, null);
  await stores.tenants.addMember(membership(t, member, 'manager'), null, audit(t.id));
});

describe('escalation policy input', () => {
  const level = { after_minutes: 5, notify: [{ channel: 'email', recipient: 'a@example.test' }] };
  it.each([
    ['no levels', { name: 'x1', levels: [] }, 'levels:too_small'],
    ['six levels', { name: 'x1', levels: Array(6).fill(level) }, 'levels:too_big'],
    [
      'a target naming two kinds of recipient',
      {
        name: 'x1',
        levels: [{ after_minutes: 5, notify: [{ channel: 'email', recipient: 'a@b.co', role: 'owner' }] }],
      },
      'levels.0.notify.0.role:custom',
    ],
    [
      'a target naming none',
      { name: 'x1', levels: [{ after_minutes: 5, notify: [{ channel: 'email' }] }] },
      'levels.0.notify.0:custom',
    ],
    [
      'a role that is not a role',
      { name: 'x1', levels: [{ after_minutes: 5, notify: [{ channel: 'in_app', role: 'boss' }] }] },
      'levels.0.notify.0.role:invalid_value',
    ],
    [
      'after_minutes 0',
      { name: 'x1', levels: [{ ...level, after_minutes: 0 }] },
      'levels.0.after_minutes:too_small',
    ],
    [
      'after_minutes over a week',
      { name: 'x1', levels: [{ ...level, after_minutes: 10_081 }] },
      'levels.0.after_minutes:too_big',
    ],
    [
      'six targets',
      { name: 'x1', levels: [{ ...level, notify: Array(6).fill(level.notify[0]) }] },
      'levels.0.notify:too_big',
    ],
    ['repeat 4', { name: 'x1', levels: [level], repeat: 4 }, 'repeat:too_big'],
    ['priority 1001', { name: 'x1', levels: [level], priority: 1001 }, 'priority:too_big'],
    [
      'ack_timeout_minutes 0',
      { name: 'x1', levels: [level], ack_timeout_minutes: 0 },
      'ack_timeout_minutes:too_small',
    ],
    [
      '21 exception types',
      { name: 'x1', levels: [level], match: { exception_types: Array(21).fill('a.b') } },
      'match.exception_types:too_big',
    ],
    ['an unknown field', { name: 'x1', levels: [level], tenant_id: 'other' }, ':unrecognized_keys'],
  ])('%s is refused, naming the field', (_, input, issue) => {
    expect(issues(EscalationPolicyCreate, input)).toEqual([issue]);
  });

  it('a PATCH is refused the same way', () => {
    expect(issues(EscalationPolicyUpdate, { version: 1, levels: [] })).toEqual(['levels:too_small']);
  });
});

describe('escalation policies', () => {
  it('a recipient_user_id that is not a member is 422 naming the target, and nothing is stored', async () => {
    const before = await drain((cursor) => escalationPolicyStore(db).list(t.id, { limit: 100, cursor }));
    const bad = body({
      levels: [
        { after_minutes: 5, notify: [{ channel: 'in_app', recipient_user_id: member.user.id }] },
        {
          after_minutes: 5,
          notify: [
            { channel: 'email', recipient: 'a@example.test' },
            { channel: 'in_app', recipient_user_id: 'nobody' },
          ],
        },
      ],
    });
    const err = await createPolicy(policyDeps(), owner, t.id, bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'levels.1.notify.1.recipient_user_id', code: 'not_a_member' }),
    ]);
    const after = await drain((cursor) => escalationPolicyStore(db).list(t.id, { limit: 100, cursor }));
    expect(after).toEqual(before);
  });

  it('creates at version 1 with defaults, changes by version (409 when stale), audits each change', async () => {
    const p = await createPolicy(policyDeps(), owner, t.id, body({ enabled: false }));
    expect(p).toMatchObject({ version: 1, priority: 100, repeat: 0, ack_timeout_minutes: null, match: {} });
    expect(await getPolicy(policyDeps(), t.id, p.id)).toEqual(p);
    const changed = await updatePolicy(policyDeps(), owner, t.id, p.id, { version: 1, repeat: 2 });
    expect(changed).toMatchObject({ version: 2, repeat: 2 });
    await expect(
      updatePolicy(policyDeps(), owner, t.id, p.id, { version: 1, repeat: 3 }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await updatePolicy(policyDeps(), owner, t.id, p.id, { version: 2, repeat: 2 })).toEqual(changed);
    await deletePolicy(policyDeps(), owner, t.id, p.id);
    const events = await drain((cursor) =>
      stores.audit.list(t.id, { entity_type: 'escalation_policy', entity_id: p.id }, { limit: 100, cursor }),
    );
    expect(events.map((e) => e.event_type).sort()).toEqual([
      'escalation_policy.created',
      'escalation_policy.deleted',
      'escalation_policy.updated',
    ]);
  });
});

describe('attaching a policy to a new exception', () => {
  it('attaches the enabled policy with the lowest priority that fits, and arms its first level', async () => {
    const deps = policyDeps();
    const lenient = await createPolicy(deps, owner, t.id, body({ name: 'Any', priority: 500 }));
    await createPolicy(deps, owner, t.id, body({ name: 'Off', priority: 0, enabled: false }));
    const critical = await createPolicy(
      deps,
      owner,
      t.id,
      body({ name: 'Critical', priority: 10, match: { severities: ['critical'] } }),
    );
    await createPolicy(
      deps,
      owner,
      t.id,
      body({ name: 'Other type', priority: 1, match: { exception_types: ['x.y'] } }),
    );

    const hot = await raise('critical');
    expect(hot.escalation).toEqual({ policy_id: critical.id, level: 1, next_at: '2031-05-01T09:15:00.000Z' });
    expect(await getException(exceptionDeps(), t.id, hot.id)).toEqual(hot);
    expect((await timerStore(db).list(t.id, { subject_id: hot.id }, { limit: 10 })).items).toEqual([
      expect.objectContaining({
        id: `escalation:${hot.id}`,
        kind: 'escalation',
        policy_id: critical.id,
        level: 1,
        due_at: '2031-05-01T09:15:00.000Z',
      }),
    ]);
    expect((await raise('warning')).escalation?.policy_id).toBe(lenient.id);
  });

  it('no enabled policy fits: escalation null and no timer', async () => {
    const other = tenant();
    await stores.tenants.createTenant(other, audit(other.id, 'tenant', other.id));
    const e = await createException(exceptionDeps(), owner, other.id, {
      exception_type: 'a.b',
      subject_type: 'invoice',
      subject_id: 'INV-2',
      title: 'Nothing fits',
      summary: 'No policy',
      severity: 'info',
    });
    expect(e.escalation).toBeNull();
    expect((await timerStore(db).list(other.id, {}, { limit: 10 })).items).toEqual([]);
  });

  it('acknowledging stops the escalation: its timer is cancelled with the change', async () => {
    const e = await raise('critical');
    const acked = await changeExceptionStatus(exceptionDeps(), owner, t.id, e.id, { status: 'acknowledged' });
    expect(acked.escalation).toBeNull();
    expect((await timerStore(db).list(t.id, { subject_id: e.id }, { limit: 10 })).items).toEqual([]);
  });

  it('disabling the policy cancels its pending timers and clears the escalation it shows', async () => {
    const deps = policyDeps();
    const own = await createPolicy(
      deps,
      owner,
      t.id,
      body({ name: 'Top', priority: 0, match: { exception_types: ['solo.type'] } }),
    );
    const e = await raise('info', 'solo.type');
    expect(e.escalation?.policy_id).toBe(own.id);
    await updatePolicy(deps, owner, t.id, own.id, { version: 1, enabled: false });
    expect((await timerStore(db).list(t.id, { subject_id: e.id }, { limit: 10 })).items).toEqual([]);
    expect((await getException(exceptionDeps(), t.id, e.id)).escalation).toBeNull();
  });
});
