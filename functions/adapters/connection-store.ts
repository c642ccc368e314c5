import type { Connection, ConnectionStore } from '#shared/domain/integrations/ports';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { storedReader } from '#shared/table/entity';
import {
  integrationConnection,
  integrationConnectionRecord,
} from '#shared/table/entities/integration-connection';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, getRecord, putNew } from './records';
import { queryAll, queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { timerDelete, timerOp, timerPut } from './timer-store';
import { timerId } from '#shared/domain/timers/arming';

/** The stored connection: its API fields and its category (health is computed, not stored). */
const toConnection = /* @__PURE__ */ storedReader<Connection>()(integrationConnectionRecord);

const claimKey = (c: Connection) =>
  adapterConnection.key({ tenant_id: c.tenant_id, adapter_key: c.adapter_key });

/**
 * `c` takes (or keeps) its adapter: allowed while no other connection of the adapter is active,
 * the one rule that keeps the gate's and the export's choice unambiguous.
 */
const holdAdapter = (c: Connection): WriteOp => ({
  Put: {
    Item: adapterConnection.item({
      tenant_id: c.tenant_id,
      adapter_key: c.adapter_key,
      connection_id: c.id,
      category: c.category,
      status: c.status,
    }),
    ConditionExpression: 'attribute_not_exists(pk) OR connection_id = :id OR #status <> :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':id': c.id, ':active': 'active' },
  },
});

const releaseAdapter = (c: Connection): WriteOp => ({
  Delete: {
    Key: claimKey(c),
    ConditionExpression: 'connection_id = :id',
    ExpressionAttributeValues: { ':id': c.id },
  },
});

/** The connection as it was read: a write conditioned on it loses to any change since. */
const unchangedSince = (c: Connection) => ({
  ConditionExpression: 'updated_at = :read',
  ExpressionAttributeValues: { ':read': c.updated_at },
});

/** Integration connections and the adapter claims of their tenants, over the one table. */
export const connectionStore = (db: Db): ConnectionStore => {
  const getConnection = (tenantId: string, id: string) =>
    getRecord(db, integrationConnection.key({ tenant_id: tenantId, id }), toConnection);
  const activeById = async (tenantId: string, id: string | undefined) => {
    const found = id ? await getConnection(tenantId, id) : undefined;
    return found?.status === 'active' ? found : undefined;
  };

  return {
    async create(c, audit, timer) {
      const result = await transact(db, [
        putNew(integrationConnection.item(c)),
        auditPut(audit),
        holdAdapter(c),
        ...(timer ? [timerPut(timer)] : []),
      ]);
      if (result.ok) return 'written';
      if (result.failed.includes(2)) return 'adapter_taken';
      throw new Error('integration connection id collision');
    },

    get: getConnection,

    list(tenantId, filter, page) {
      return queryPage(db, {
        scope: { list: 'integration-connections', tenant_id: tenantId, ...filter },
        page,
        map: toConnection,
        ...integrationConnection.query('table', { tenant_id: tenantId }),
        filters: { status: filter.status, adapter_key: filter.adapter_key },
      });
    },

    async update(next, previous, audit, timer) {
      const ops: WriteOp[] = [
        { Put: { Item: integrationConnection.item(next), ...unchangedSince(previous) } },
        auditPut(audit),
      ];
      // Only a status change moves the claim; a disabled connection whose adapter another one
      // took since is not re-written (its claim is that other connection's now).
      const claim = next.status !== previous.status ? await getItem(db, claimKey(previous)) : undefined;
      const becomesActive = next.status === 'active' && previous.status !== 'active';
      if (becomesActive || claim?.connection_id === previous.id) ops.push(holdAdapter(next));
      if (timer !== undefined) ops.push(timerOp(next.tenant_id, timerId('hub_schedule', next.id), timer));
      const result = await transact(db, ops);
      if (result.ok) return 'written';
      return becomesActive && result.failed.includes(2) && !result.failed.includes(0)
        ? 'adapter_taken'
        : 'changed';
    },

    async remove(previous, audit) {
      const ops: WriteOp[] = [
        { Delete: { Key: integrationConnection.key(previous), ...unchangedSince(previous) } },
        auditPut(audit),
        timerDelete(previous.tenant_id, timerId('hub_schedule', previous.id)),
      ];
      const claim = await getItem(db, claimKey(previous));
      if (claim?.connection_id === previous.id) ops.push(releaseAdapter(previous));
      return (await transact(db, ops)).ok;
    },

    async findActive(tenantId, query) {
      if ('id' in query) return activeById(tenantId, query.id);
      if ('adapter_key' in query) {
        const claim = await getItem(
          db,
          adapterConnection.key({ tenant_id: tenantId, adapter_key: query.adapter_key }),
        );
        return claim?.status === 'active' ? activeById(tenantId, claim.connection_id as string) : undefined;
      }
      // Ids are time-ordered: the first created of the category, whichever adapter it uses.
      const claims = await queryAll(db, adapterConnection.query('table', { tenant_id: tenantId }));
      const first = claims
        .filter((claim) => claim.category === query.category && claim.status === 'active')
        .map((claim) => claim.connection_id as string)
        .sort()[0];
      return activeById(tenantId, first);
    },
  };
};
