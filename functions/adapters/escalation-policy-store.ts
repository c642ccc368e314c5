import type {
  EscalationPolicy,
  EscalationPolicyStore,
  MemberDirectory,
} from '#shared/domain/escalation/ports';
import type { Timer } from '#shared/domain/timers/ports';
import { reader } from '#shared/table/entity';
import { escalationPolicy, escalationPolicyRecord } from '#shared/table/entities/escalation-policy';
import { exception } from '#shared/table/entities/exception';
import { member } from '#shared/table/entities/member';
import { timer, timerRecord } from '#shared/table/entities/timer';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, getRecord, putIf, putNew } from './records';
import { queryAll, queryPage } from './query';
import { transact } from './transact';

const toPolicy = /* @__PURE__ */ reader<EscalationPolicy>()(escalationPolicyRecord);
const toTimer = /* @__PURE__ */ reader<Timer>()(timerRecord);

/**
 * Stops one pending timer of a policy together with what its exception shows: the timer is
 * deleted if it is still due when it was read, and the exception's escalation (or its pending
 * acknowledgement timeout) cleared if it is still the one the timer was armed for. If the
 * exception moved on meanwhile, nothing is written: the firing's own re-read decides then.
 */
const cancelOne = (db: Db, t: Timer) =>
  transact(db, [
    {
      Delete: {
        Key: timer.key({ tenant_id: t.tenant_id, id: t.id }),
        ConditionExpression: 'due_at = :due',
        ExpressionAttributeValues: { ':due': t.due_at },
      },
    },
    {
      Update: {
        Key: exception.key({ tenant_id: t.tenant_id, id: t.subject_id }),
        ...(t.kind === 'escalation'
          ? {
              UpdateExpression: 'REMOVE #esc',
              ConditionExpression: '#esc.policy_id = :policy AND #esc.next_at = :due',
              ExpressionAttributeNames: { '#esc': 'escalation' },
              ExpressionAttributeValues: { ':policy': t.policy_id, ':due': t.due_at },
            }
          : {
              UpdateExpression: 'REMOVE ack_timeout_at',
              ConditionExpression: 'ack_timeout_at = :due',
              ExpressionAttributeValues: { ':due': t.due_at },
            }),
      },
    },
  ]);

/** What an exception's create and acknowledgement read of the policies (the exceptions group bundles only this). */
export const policyReader = (db: Db): Pick<EscalationPolicyStore, 'get' | 'all'> => ({
  get: (tenantId, id) => getRecord(db, escalationPolicy.key({ tenant_id: tenantId, id }), toPolicy),
  async all(tenantId) {
    return (await queryAll(db, escalationPolicy.query('table', { tenant_id: tenantId }))).map(toPolicy);
  },
});

export const escalationPolicyStore = (db: Db): EscalationPolicyStore => ({
  ...policyReader(db),

  async create(policy, audit) {
    const result = await transact(db, [putNew(escalationPolicy.item(policy)), auditPut(audit)]);
    if (!result.ok) throw new Error('escalation policy id collision');
  },

  list(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'escalation-policies', tenant_id: tenantId },
      page,
      map: toPolicy,
      ...escalationPolicy.query('table', { tenant_id: tenantId }),
    });
  },

  async update(next, expectedVersion, audit) {
    const result = await transact(db, [
      putIf(escalationPolicy.item(next), {
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      }),
      auditPut(audit),
    ]);
    return result.ok;
  },

  async remove(tenantId, id, audit) {
    const result = await transact(db, [
      {
        Delete: {
          Key: escalationPolicy.key({ tenant_id: tenantId, id }),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      auditPut(audit),
    ]);
    return result.ok;
  },

  async cancelTimers(tenantId, policyId) {
    const pending = (await queryAll(db, timer.query('table', { tenant_id: tenantId })))
      .map(toTimer)
      .filter((t) => t.policy_id === policyId && (t.kind === 'escalation' || t.kind === 'ack_timeout'));
    let cancelled = 0;
    for (const t of pending) if ((await cancelOne(db, t)).ok) cancelled++;
    return cancelled;
  },
});

export const memberDirectory = (db: Db): MemberDirectory => ({
  isMember: async (tenantId, userId) =>
    (await getItem(db, member.key({ tenant_id: tenantId, user_id: userId }))) !== undefined,
  async withRole(tenantId, role) {
    const members = await queryAll(db, member.query('table', { tenant_id: tenantId }));
    return members.filter((m) => m.role === role).map((m) => String(m.user_id));
  },
});
