import type { Tenant, TenantStore } from '#shared/domain/identity/ports';
import { member } from '#shared/table/entities/member';
import { reader } from '#shared/table/entity';
import { tenant, tenantRecord } from '#shared/table/entities/tenant';
import { auditPut } from './audit-store';
import { beginsWith, queryAll, queryPage } from './query';
import type { Db } from './dynamo';
import { getRecord, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { toMember, userPuts } from './identity-store';
import { outboxPut } from './outbox';
import { DEFAULT_TIME_ZONE } from '#shared/kernel/time-zone';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const readTenant = /* @__PURE__ */ reader<Tenant>()(tenantRecord);
const toTenant = (item: Record<string, unknown>): Tenant => {
  const t = readTenant(item);
  return { ...t, timezone: t.timezone ?? DEFAULT_TIME_ZONE };
};

/** BatchGetItem may leave keys unprocessed: asked again, a few times. */
const BATCH_ATTEMPTS = 3;

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

export const tenantStore = (db: Db): TenantStore => {
  async function tenantsById(ids: string[]): Promise<Map<string, Tenant>> {
    const found = new Map<string, Tenant>();
    let keys: Record<string, unknown>[] = [...new Set(ids)].map((id) => ({ ...tenant.key({ id }) }));
    for (let attempt = 1; keys.length > 0 && attempt <= BATCH_ATTEMPTS; attempt++) {
      const out = await db.doc.send(
        new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys } } }),
      );
      for (const item of out.Responses?.[db.tableName] ?? []) found.set(String(item.id), toTenant(item));
      keys = out.UnprocessedKeys?.[db.tableName]?.Keys ?? [];
    }
    return found;
  }

  /**
   * A renamed tenant's memberships keep its name for /auth/me: each copy is set after the rename
   * committed (a tenant's members may be more than one transaction holds). A copy left behind by
   * a failure reads the old name until the next rename; the tenant's own reads are never stale.
   */
  async function renameMemberships(t: Tenant) {
    const items = await queryAll(db, member.query('table', { tenant_id: t.id }));
    for (const item of items) {
      await db.doc
        .send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET tenant_name = :name',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':name': t.name },
          }),
        )
        .catch((err: unknown) => {
          if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
        });
    }
  }

  return {
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

    async listTenantsOf(userId, page) {
      const memberships = await queryPage(db, {
        scope: { list: 'tenants', user_id: userId },
        ...member.query('gsi1', { user_id: userId }),
        sortCondition: beginsWith(member.sortPrefix('gsi1')),
        forward: true,
        page,
        map: (item) => ({
          id: String(item.tenant_id),
          name: String(item.tenant_name),
          status: 'active' as const,
          timezone: DEFAULT_TIME_ZONE,
          created_at: String(item.tenant_created_at),
        }),
      });
      // The membership keeps a copy of the tenant's name for /auth/me; the time zone (and the name
      // as it is now) are the tenant's own: one BatchGet of the page's tenants.
      const current = await tenantsById(memberships.items.map((t) => t.id));
      return { ...memberships, items: memberships.items.map((t) => current.get(t.id) ?? t) };
    },

    async updateTenant(next, current, audit, outbox) {
      const zoneWas =
        current.timezone === DEFAULT_TIME_ZONE ? '(#tz = :tz OR attribute_not_exists(#tz))' : '#tz = :tz';
      const result = await transact(db, [
        {
          Update: {
            Key: tenant.key({ id: next.id }),
            UpdateExpression: 'SET #name = :name, #tz = :timezone',
            ConditionExpression: `#name = :was AND ${zoneWas}`,
            ExpressionAttributeNames: { '#name': 'name', '#tz': 'timezone' },
            ExpressionAttributeValues: {
              ':name': next.name,
              ':timezone': next.timezone,
              ':was': current.name,
              ':tz': current.timezone,
            },
          },
        },
        auditPut(audit),
        ...(outbox ? [outboxPut(outbox)] : []),
      ]);
      if (!result.ok) return false;
      if (next.name !== current.name) await renameMemberships(next);
      return true;
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
  };
};
