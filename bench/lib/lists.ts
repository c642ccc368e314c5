import { randomBytes } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { documentStore } from '#functions/adapters/document-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { inboxStore } from '#functions/adapters/inbox-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { taskStore } from '#functions/adapters/task-store';
import { ensureTable, localClient } from '#local/dynamodb-local';
import { newId } from '#shared/kernel/ids';
import { document } from '#shared/table/entities/document';
import { exception } from '#shared/table/entities/exception';
import { storedInboxItem } from '#shared/table/entities/inbox-item';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { task } from '#shared/table/entities/task';
import { workflowRun } from '#shared/table/entities/workflow-run';
import { workflowRunStore } from '#functions/adapters/workflow-run-store';

/**
 * List cost against history (docs/performance.md, lists at any size): for each filtered list, a
 * tenant with 10 matching records, older than a history of non-matching ones loaded straight into
 * DynamoDB Local (BatchWriteItem, 25 at a time, several batches in flight), so that the history
 * lies between the newest records and the matching ones. The first page (limit 10) is read
 * through the same store the route calls, and its read units (ReturnConsumedCapacity), round
 * trips and items are counted. Budget: at the largest history the read units are at most 1.1x
 * those at the smallest, and the page is full.
 */

const MATCHING = 10;
const IN_FLIGHT = 8;

interface ListCase {
  name: string;
  matching: (tenant: string) => Record<string, unknown>;
  other: (tenant: string) => Record<string, unknown>;
  firstPage: (db: Db, tenant: string) => Promise<{ items: unknown[] }>;
}

const now = () => new Date().toISOString();
const page = { limit: MATCHING };
const USER = 'bench-user';

const CASES: ListCase[] = [
  {
    name: 'exceptions?status=open',
    matching: (t) =>
      exception.item({ tenant_id: t, id: newId(), status: 'open', severity: 'warning', title: 'Open' }),
    other: (t) =>
      exception.item({ tenant_id: t, id: newId(), status: 'resolved', severity: 'warning', title: 'Done' }),
    firstPage: (db, t) => exceptionStore(db).list(t, { status: 'open' }, page),
  },
  {
    name: 'review-items?kind=workflow_action',
    matching: (t) =>
      storedReviewItem({ tenant_id: t, id: newId(), kind: 'workflow_action', status: 'retried' }),
    other: (t) => storedReviewItem({ tenant_id: t, id: newId(), kind: 'notification', status: 'retried' }),
    firstPage: (db, t) => notificationStore(db).listReviewItems(t, { kind: 'workflow_action' }, page),
  },
  {
    name: 'documents?status=draft',
    matching: (t) => document.item({ tenant_id: t, id: newId(), status: 'draft', document_type: 'invoice' }),
    other: (t) => document.item({ tenant_id: t, id: newId(), status: 'paid', document_type: 'invoice' }),
    firstPage: (db, t) => documentStore(db).list(t, { status: 'draft' }, page),
  },
  {
    name: 'tasks?status=open',
    matching: (t) => task.item({ tenant_id: t, id: newId(), status: 'open', title: 'Open' }),
    other: (t) => task.item({ tenant_id: t, id: newId(), status: 'done', title: 'Done' }),
    firstPage: (db, t) => taskStore(db).list(t, { status: 'open' }, page),
  },
  {
    name: 'inbox?unread=true',
    matching: (t) => inboxRecord(t, null),
    other: (t) => inboxRecord(t, now()),
    firstPage: (db, t) => inboxStore(db).list({ tenant_id: t, user_id: USER }, { unread: true }, page),
  },
  {
    name: 'workflow-runs?status=failed',
    matching: (t) => runRecord(t, 'rule-b', 'failed'),
    other: (t) => runRecord(t, 'rule-a', 'succeeded'),
    firstPage: (db, t) => workflowRunStore(db).list(t, { status: 'failed' }, page),
  },
  {
    // A rule alone: one Query per status partition, merged (the other rules' runs are elsewhere).
    name: 'workflow-runs?rule_id',
    matching: (t) => runRecord(t, 'rule-b', 'failed'),
    other: (t) => runRecord(t, 'rule-a', 'succeeded'),
    firstPage: (db, t) => workflowRunStore(db).list(t, { rule_id: 'rule-b' }, page),
  },
  {
    name: 'workflow-runs?subject',
    matching: (t) => runRecord(t, 'rule-b', 'failed', 'X'),
    other: (t) => runRecord(t, 'rule-a', 'succeeded'),
    firstPage: (db, t) => workflowRunStore(db).list(t, { subject_type: 'task', subject_id: 'X' }, page),
  },
];

const runRecord = (tenant: string, ruleId: string, status: string, subject = newId()) => {
  const at = now();
  return workflowRun.item({
    id: newId(),
    tenant_id: tenant,
    rule_id: ruleId,
    rule_version: 1,
    trigger: { event_id: newId(), event_type: 'task.status_changed' },
    subject_type: 'task',
    subject_id: subject,
    status,
    actions: [{ index: 0, type: 'create_task', status: 'done', result: { task_id: newId() }, at }],
    replays: [],
    created_at: at,
    finished_at: at,
    ttl: 0,
    event_at: at,
    depth: 0,
  });
};

/** `BENCH_LISTS=workflow-runs` measures only the lists whose name starts with one of its entries. */
const chosen = (): ListCase[] => {
  const only = (process.env.BENCH_LISTS ?? '').split(',').filter(Boolean);
  return only.length ? CASES.filter((c) => only.some((o) => c.name.startsWith(o))) : CASES;
};

const inboxRecord = (tenant: string, readAt: string | null) =>
  storedInboxItem({
    tenant_id: tenant,
    user_id: USER,
    notification_id: newId(),
    subject: 'Subject',
    body: 'Body',
    category: 'general',
    priority: 'normal',
    created_at: now(),
    read_at: readAt,
    read_state: readAt === null ? 'unread' : 'read',
  });

async function load(db: Db, make: () => Record<string, unknown>, count: number) {
  let left = count;
  const worker = async () => {
    while (left > 0) {
      const n = Math.min(25, left);
      left -= n;
      let requests: unknown[] | undefined = Array.from({ length: n }, () => ({
        PutRequest: { Item: make() },
      }));
      while (requests?.length) {
        const out: { UnprocessedItems?: Record<string, unknown[]> } = await db.doc.send(
          new BatchWriteCommand({ RequestItems: { [db.tableName]: requests as never } }),
        );
        requests = out.UnprocessedItems?.[db.tableName];
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** A Db whose every Query asks for its consumed capacity, and a tally of what the reads cost. */
function metered(endpoint: string, tableName: string) {
  const tally = { readUnits: 0, roundTrips: 0 };
  const doc = documentClient(localClient(endpoint));
  doc.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const used = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      tally.readUnits += used?.CapacityUnits ?? 0;
      tally.roundTrips += 1;
      return out;
    },
    { step: 'initialize', name: 'meter' },
  );
  const db: Db = { doc, tableName, cursorSecret: randomBytes(32).toString('hex') };
  return { db, tally };
}

export interface ListCost {
  list: string;
  history: number;
  readUnits: number;
  roundTrips: number;
  items: number;
}

export async function measureLists(
  endpoint: string,
  sizes: number[],
  log: (msg: string) => void,
): Promise<{ rows: ListCost[]; ratios: Record<string, number> }> {
  const tableName = `bench-lists-${randomBytes(3).toString('hex')}`;
  await ensureTable(endpoint, tableName);
  const loader = metered(endpoint, tableName).db;
  const rows: ListCost[] = [];
  const cases = chosen();
  for (const c of cases) {
    for (const size of sizes) {
      const tenant = `lists-${size}-${randomBytes(3).toString('hex')}`;
      const started = performance.now();
      await load(loader, () => c.matching(tenant), MATCHING);
      await load(loader, () => c.other(tenant), size);
      log(
        `lists: ${c.name}, ${size} others loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const { db, tally } = metered(endpoint, tableName);
      const first = await c.firstPage(db, tenant);
      rows.push({ list: c.name, history: size, ...tally, items: first.items.length });
    }
  }
  const ratios = Object.fromEntries(
    cases.map((c) => {
      const of = rows.filter((r) => r.list === c.name);
      return [c.name, Math.round((of.at(-1)!.readUnits / of[0]!.readUnits) * 100) / 100];
    }),
  );
  return { rows, ratios };
}
