import { randomBytes } from 'node:crypto';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { createStores } from '#functions/adapters/stores';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { ensureTable, localClient } from '#local/dynamodb-local';
import { createException } from '#shared/domain/exceptions/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { fireRules } from '#shared/domain/workflows/runner';
import { createRule } from '#shared/domain/workflows/use-cases';
import { systemClock } from '#shared/kernel/ids';

/**
 * What one matched firing with one `create_task` costs the internal worker in write units
 * (ReturnConsumedCapacity from DynamoDB Local): everything but the run's own record (the rule
 * read, the task with its audit and outbox items, the `workflow_rule.fired` audit event: what
 * the worker wrote before runs existed) and the run's record (its start and its save) apart,
 * each through a client of its own. Issue 36: only the run's own record may add writes.
 */

/** The document client's commands and the low-level ones they are sent as (the middleware sees either). */
const WRITES = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

function metered(endpoint: string, tableName: string) {
  const tally = { writeUnits: 0, readUnits: 0, writes: 0 };
  const doc = documentClient(localClient(endpoint));
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const used = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const units = (Array.isArray(used) ? used : [used]).reduce(
        (n: number, c) => n + ((c as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0),
        0,
      );
      if (WRITES.has(context.commandName ?? '')) {
        tally.writeUnits += units;
        tally.writes += 1;
      } else tally.readUnits += units;
      return out;
    },
    { step: 'initialize', name: 'meter' },
  );
  const db: Db = { doc, tableName, cursorSecret: randomBytes(32).toString('hex') };
  return { db, tally };
}

export interface FiringWrites {
  /** Every write but the run's record: what a firing wrote before runs. */
  withoutRun: { writeUnits: number; writes: number; readUnits: number };
  /** The run's record: started before the first action, saved with the outcomes after the last. */
  run: { writeUnits: number; writes: number };
  total: number;
}

export async function measureFiringWrites(endpoint: string): Promise<FiringWrites> {
  const tableName = `bench-firing-${randomBytes(3).toString('hex')}`;
  await ensureTable(endpoint, tableName);
  const setup = metered(endpoint, tableName).db;
  const stores = createStores(setup);
  const tenant = 'bench-firing';
  const manager = {
    user_id: 'bench-manager',
    token_id: '',
    email: 'm@example.test',
    display_name: 'Manager',
    platform_roles: [],
    memberships: {},
  };
  await createRule(
    { rules: stores.workflowRules, zones: stores.zones, clock: systemClock },
    manager,
    tenant,
    {
      name: 'Critical needs a manager',
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
      actions: [
        { type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 },
      ],
      enabled: true,
    },
  );
  let event: OutboxEvent | undefined;
  const exceptions = {
    ...stores.exceptions,
    create: async (...args: Parameters<typeof stores.exceptions.create>) => {
      event = args[2];
      return stores.exceptions.create(...args);
    },
  };
  await createException({ exceptions, clock: systemClock }, manager, tenant, {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'invoice',
    subject_id: 'INV-1',
    title: 'Short payment',
    summary: 'Short by 40.00',
    severity: 'critical',
  });
  const rest = metered(endpoint, tableName);
  const run = metered(endpoint, tableName);
  await fireRules({ ...workflowRunDeps(rest.db), runs: workflowRunStore(run.db), maxAttempts: 3 }, event!, 1);
  return {
    withoutRun: {
      writeUnits: rest.tally.writeUnits,
      writes: rest.tally.writes,
      readUnits: rest.tally.readUnits,
    },
    run: { writeUnits: run.tally.writeUnits, writes: run.tally.writes },
    total: rest.tally.writeUnits + run.tally.writeUnits,
  };
}
