import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Membership, Tenant, TenantStore } from '#shared/domain/identity/ports';
import { ENTITY } from '#shared/table/table';
import * as keys from '#shared/table/keys';
import { auditPut } from './audit-store';
import { type Db, pick, putNew, queryPage, transact, type WriteOp } from './dynamo';
import { toMember, userPuts } from './identity-store';

const TENANT_FIELDS = ['id', 'name', 'status', 'created_at'] as const;
const toTenant = (item: Record<string, unknown>) => pick(item, TENANT_FIELDS) as unknown as Tenant;

const memberItem = (m: Membership) => ({
  ...keys.member(m.tenant_id, m.user_id),
  ...keys.memberIndex(m.user_id, m.tenant_id),
  entity: ENTITY.member,
  ...m,
});

/**
 * The tenant item keeps `owner_count`, so "the last owner cannot be removed or demoted" is a
 * condition in the same transaction as the membership change, not a read that can race.
 */
const ownerDelta = (tenantId: string, delta: 1 | -1): WriteOp => ({
  Update: {
    Key: keys.tenant(tenantId),
    UpdateExpression: 'ADD owner_count :d',
    ConditionExpression: delta < 0 ? 'owner_count > :one' : 'attribute_exists(pk)',
    ExpressionAttributeValues: delta < 0 ? { ':d': -1, ':one': 1 } : { ':d': 1 },
  },
});

export const tenantStore = (db: Db): TenantStore => ({
  async createTenant(tenant, audit) {
    const item = {
      ...keys.tenant(tenant.id),
      ...keys.tenantIndex(tenant.created_at, tenant.id),
      entity: ENTITY.tenant,
      ...tenant,
      owner_count: 0,
    };
    return (await transact(db, [putNew(item), auditPut(audit)])).ok;
  },

  async getTenant(tenantId) {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.tenant(tenantId) }));
    return out.Item ? toTenant(out.Item) : undefined;
  },

  listTenants(page) {
    return queryPage(db, {
      scope: { list: 'tenants' },
      index: 'gsi1',
      partition: 'TENANTS',
      page,
      map: toTenant,
    });
  },

  listTenantsOf(userId, page) {
    return queryPage(db, {
      scope: { list: 'tenants', user_id: userId },
      index: 'gsi1',
      partition: keys.userIndex(userId).gsi1pk,
      sortCondition: { expression: 'begins_with(#sk, :sk)', values: { ':sk': 'MEMBER#' } },
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

  async getMember(tenantId, userId) {
    const out = await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: keys.member(tenantId, userId), ConsistentRead: true }),
    );
    return out.Item ? toMember(out.Item) : undefined;
  },

  listMembers(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'members', tenant_id: tenantId },
      partition: keys.member(tenantId, '').pk,
      forward: true,
      page,
      map: toMember,
    });
  },

  async addMember(member, newUser, audit) {
    const ops: WriteOp[] = [...(newUser ? userPuts(newUser) : []), putNew(memberItem(member))];
    const memberAt = ops.length - 1;
    if (member.role === 'owner') ops.push(ownerDelta(member.tenant_id, 1));
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
            Item: memberItem(next),
            ...expected,
            ExpressionAttributeValues: { ':expected': current.role },
          },
        }
      : {
          Delete: {
            Key: keys.member(current.tenant_id, current.user_id),
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
