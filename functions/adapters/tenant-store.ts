import type { Tenant, TenantStore } from '#shared/domain/identity/ports';
import { member } from '#shared/table/entities/member';
import { reader } from '#shared/table/entity';
import { tenant, tenantRecord } from '#shared/table/entities/tenant';
import { auditPut } from './audit-store';
import { beginsWith, type Db, putNew, queryPage, transact, type WriteOp } from './dynamo';
import { toMember, userPuts } from './identity-store';
import { getRecord } from './records';

const toTenant = /* @__PURE__ */ reader<Tenant>()(tenantRecord);

/**
 * The tenant item keeps `owner_count`, so "the last owner cannot be removed or demoted" is a
 * condition in the same transaction as the membership change, not a read that can race.
 */
export const ownerDelta = (tenantId: string, delta: 1 | -1): WriteOp => ({
  Update: {
    Key: tenant.key({ id: tenantId }),
    UpdateExpression: 'ADD owner_count :d',
    ConditionExpression: delta < 0 ? 'owner_count > :one' : 'attribute_exists(pk)',
    ExpressionAttributeValues: delta < 0 ? { ':d': -1, ':one': 1 } : { ':d': 1 },
  },
});

export const tenantStore = (db: Db): TenantStore => ({
  async createTenant(record, audit) {
    const item = tenant.item({ ...record, owner_count: 0 });
    return (await transact(db, [putNew(item), auditPut(audit)])).ok;
  },

  // Eventually consistent, as it always was: a tenant is created once and rarely read right after.
  getTenant: (tenantId) => getRecord(db, tenant.key({ id: tenantId }), toTenant, { consistent: false }),

  listTenants(page) {
    return queryPage(db, {
      scope: { list: 'tenants' },
      ...tenant.query('gsi1', {}),
      page,
      map: toTenant,
    });
  },

  listTenantsOf(userId, page) {
    return queryPage(db, {
      scope: { list: 'tenants', user_id: userId },
      ...member.query('gsi1', { user_id: userId }),
      sortCondition: beginsWith(member.sortPrefix('gsi1')),
      forward: true,
      page,
      map: (item) => ({
        id: String(item.tenant_id),
        name: String(item.tenant_name),
        status: 'active' as const,
        created_at: String(item.tenant_created_at),
      }),
    });
  },

  getMember: (tenantId, userId) =>
    getRecord(db, member.key({ tenant_id: tenantId, user_id: userId }), toMember),

  listMembers(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'members', tenant_id: tenantId },
      ...member.query('table', { tenant_id: tenantId }),
      forward: true,
      page,
      map: toMember,
    });
  },

  async addMember(record, newUser, audit) {
    const ops: WriteOp[] = [...(newUser ? userPuts(newUser) : []), putNew(member.item(record))];
    const memberAt = ops.length - 1;
    if (record.role === 'owner') ops.push(ownerDelta(record.tenant_id, 1));
    ops.push(auditPut(audit));
    const result = await transact(db, ops);
    if (result.ok) return 'ok';
    if (result.failed.includes(memberAt)) return 'duplicate';
    if (newUser && result.failed.includes(0)) return 'email_taken';
    throw new Error(`addMember: unexpected condition failure at ${result.failed.join(',')}`);
  },

  async changeMember(current, next, audit) {
    const expected = {
      ConditionExpression: '#role = :expected',
      ExpressionAttributeNames: { '#role': 'role' },
    };
    const memberOp: WriteOp = next
      ? {
          Put: {
            Item: member.item(next),
            ...expected,
            ExpressionAttributeValues: { ':expected': current.role },
          },
        }
      : {
          Delete: {
            Key: member.key(current),
            ...expected,
            ExpressionAttributeValues: { ':expected': current.role },
          },
        };
    const ops: WriteOp[] = [memberOp];
    const wasOwner = current.role === 'owner';
    const isOwner = next?.role === 'owner';
    if (wasOwner && !isOwner) ops.push(ownerDelta(current.tenant_id, -1));
    if (!wasOwner && isOwner) ops.push(ownerDelta(current.tenant_id, 1));
    ops.push(auditPut(audit));
    const result = await transact(db, ops);
    if (result.ok) return 'ok';
    return result.failed.includes(0) ? 'stale' : 'last_owner';
  },
});
