import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import {
  createRule,
  deleteRule,
  getRule,
  listRules,
  testRule,
  updateRule,
} from '#shared/domain/workflows/use-cases';
import { ConflictError, NotFoundError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { workflowRule } from '#shared/table/entities/workflow-rule';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const T = 'acme';
const deps = () => ({ rules: stores.workflowRules, zones: stores.zones, clock: systemClock });
const manager = principal('manager-1', {}, true);
const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'Critical exceptions',
  trigger: { event_type: 'exception.created' as const },
  conditions: [{ field: 'severity', op: 'eq' as const, value: 'critical' }],
  actions: [
    {
      type: 'create_task' as const,
      title: 'Look at {{title}}',
      assignee_role: 'manager' as const,
      due_in_hours: 4,
    },
  ],
  enabled: true,
  ...overrides,
});
const auditOf = (id: string) =>
  drain((cursor) =>
    stores.audit.list(T, { entity_type: 'workflow_rule', entity_id: id }, { limit: 100, cursor }),
  );
const rawItem = async (id: string) =>
  (
    await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: workflowRule.key({ tenant_id: T, id }) }),
    )
  ).Item;

describe('workflow rules', () => {
  it('are created at version 1 and read back as written', async () => {
    const rule = await createRule(deps(), manager, T, input());
    expect(rule).toMatchObject({ version: 1, enabled: true, tenant_id: T });
    expect(await getRule(deps(), T, rule.id)).toEqual(rule);
    expect((await auditOf(rule.id)).map((a) => a.event_type)).toEqual(['workflow_rule.created']);
  });

  it("only an enabled rule is keyed under its event type (the worker's index)", async () => {
    const on = await createRule(deps(), manager, T, input());
    expect((await rawItem(on.id))?.gsi1pk).toBe(`TENANT#${T}#WORKFLOW_RULE#ON#exception.created`);
    const off = await updateRule(deps(), manager, T, on.id, { version: 1, enabled: false });
    expect(off.version).toBe(2);
    expect((await rawItem(on.id))?.gsi1pk).toBeUndefined();
    await updateRule(deps(), manager, T, on.id, {
      version: 2,
      enabled: true,
      trigger: { event_type: 'document.status_changed' },
    });
    expect((await rawItem(on.id))?.gsi1pk).toBe(`TENANT#${T}#WORKFLOW_RULE#ON#document.status_changed`);
    expect((await rawItem(on.id))?.enabled_event_type).toBeUndefined();
  });

  it('a change must name the current version: a stale one is 409 conflict and writes nothing', async () => {
    const rule = await createRule(deps(), manager, T, input());
    const v2 = await updateRule(deps(), manager, T, rule.id, { version: 1, name: 'Renamed' });
    expect(v2).toMatchObject({ version: 2, name: 'Renamed' });
    await expect(updateRule(deps(), manager, T, rule.id, { version: 1, name: 'Stale' })).rejects.toThrow(
      ConflictError,
    );
    expect(await getRule(deps(), T, rule.id)).toEqual(v2);
    // A change of nothing is no write.
    expect(await updateRule(deps(), manager, T, rule.id, { version: 2, name: 'Renamed' })).toEqual(v2);
    expect((await auditOf(rule.id)).map((a) => a.event_type)).toEqual([
      'workflow_rule.updated',
      'workflow_rule.created',
    ]);
  });

  it('two racing changes of one version: exactly one wins, the other is 409 conflict', async () => {
    for (let round = 0; round < 3; round++) {
      const rule = await createRule(deps(), manager, T, input());
      const results = await Promise.allSettled([
        updateRule(deps(), principal('a'), T, rule.id, { version: 1, name: 'By a' }),
        updateRule(deps(), principal('b'), T, rule.id, { version: 1, enabled: false }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(lost?.reason).toBeInstanceOf(ConflictError);
      expect((await getRule(deps(), T, rule.id)).version).toBe(2);
      expect(await auditOf(rule.id)).toHaveLength(2);
    }
  });

  it('delete removes the rule with one audit event; a second delete is 404', async () => {
    const rule = await createRule(deps(), manager, T, input());
    await deleteRule(deps(), manager, T, rule.id);
    await expect(getRule(deps(), T, rule.id)).rejects.toThrow(NotFoundError);
    await expect(deleteRule(deps(), manager, T, rule.id)).rejects.toThrow(NotFoundError);
    expect((await auditOf(rule.id)).map((a) => a.event_type)).toEqual([
      'workflow_rule.deleted',
      'workflow_rule.created',
    ]);
  });

  it('lists newest first, per tenant', async () => {
    const other = 'lists';
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createRule(deps(), manager, other, input({ name: `R${i}` }))).id);
    const names = (await drain((cursor) => listRules(deps(), other, { limit: 2, cursor }))).map(
      (r) => r.name,
    );
    expect(names).toEqual(['R2', 'R1', 'R0']);
  });

  it('each change is audited with what it changed: created (type, enabled), updated (fields, version), deleted (type)', async () => {
    const rule = await createRule(deps(), manager, T, input({ enabled: false }));
    await updateRule(deps(), manager, T, rule.id, {
      version: 1,
      name: 'Renamed',
      conditions: input().conditions,
      enabled: true,
    });
    await deleteRule(deps(), manager, T, rule.id);
    const events = (await auditOf(rule.id)).map((a) => [
      a.event_type,
      a.actor_id,
      JSON.parse(a.metadata_json!) as unknown,
    ]);
    expect(events).toEqual([
      ['workflow_rule.deleted', manager.user_id, { event_type: 'exception.created' }],
      ['workflow_rule.updated', manager.user_id, { changed: ['name', 'enabled'], version: 2 }],
      ['workflow_rule.created', manager.user_id, { event_type: 'exception.created', enabled: false }],
    ]);
  });

  it('a stale version is 409 even when it would change nothing; a field given as undefined is no change', async () => {
    const rule = await createRule(deps(), manager, T, input());
    const v2 = await updateRule(deps(), manager, T, rule.id, { version: 1, name: 'Renamed' });
    await expect(updateRule(deps(), manager, T, rule.id, { version: 1, name: 'Renamed' })).rejects.toThrow(
      ConflictError,
    );
    expect(
      await updateRule(deps(), manager, T, rule.id, { version: 2, name: 'Renamed', enabled: undefined }),
    ).toEqual(v2);
    expect(await getRule(deps(), T, rule.id)).toEqual(v2);
  });

  it('a delete that loses to a concurrent delete is 404, with no second audit event', async () => {
    const rule = await createRule(deps(), manager, T, input());
    const real = stores.workflowRules;
    // Another request deletes the rule between this one's read and its delete.
    const racing = {
      ...real,
      get: async (tenantId: string, id: string) => {
        const found = await real.get(tenantId, id);
        await deleteRule(deps(), principal('other'), tenantId, id);
        return found;
      },
    };
    await expect(deleteRule({ ...deps(), rules: racing }, manager, T, rule.id)).rejects.toThrow(
      NotFoundError,
    );
    expect((await auditOf(rule.id)).map((a) => [a.event_type, a.actor_id])).toEqual([
      ['workflow_rule.deleted', 'other'],
      ['workflow_rule.created', manager.user_id],
    ]);
  });

  it('testing a rule answers what it would do, enabled or not, and writes nothing', async () => {
    const rule = await createRule(deps(), manager, T, input({ enabled: false }));
    const before = await auditOf(rule.id);
    const answer = await testRule(deps(), T, rule.id, {
      event: {
        event_type: 'exception.created',
        entity: { id: 'e9', severity: 'critical', title: 'Short payment' },
      },
    });
    expect(answer).toMatchObject({
      matched: true,
      event_type_matched: true,
      side_effects: 'none',
      actions: [{ type: 'create_task', title: 'Look at Short payment', subject_id: 'e9' }],
    });
    expect(await auditOf(rule.id)).toEqual(before);
    await expect(
      testRule(deps(), T, 'no-such-rule', { event: { event_type: 'exception.created', entity: {} } }),
    ).rejects.toThrow(NotFoundError);
  });
});
