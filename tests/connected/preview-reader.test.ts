import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { exceptionStore } from '#functions/adapters/exception-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { PREVIEW_READ_MAX, previewReader } from '#functions/adapters/preview-reader';
import { readOnly, ReadOnlyViolation } from '#functions/adapters/read-only';
import type { createStores } from '#functions/adapters/stores';
import { parse } from '#shared/api/issues';
import { DocumentCreate } from '#shared/api/schemas/documents';
import { BusinessExceptionCreate } from '#shared/api/schemas/exceptions';
import { TaskCreate } from '#shared/api/schemas/tasks';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { createException } from '#shared/domain/exceptions/use-cases';
import { createNotification } from '#shared/domain/notifications/use-cases';
import { previewDetection } from '#shared/domain/previews/use-cases';
import { createTask } from '#shared/domain/tasks/use-cases';
import { newId, systemClock } from '#shared/kernel/ids';
import { task } from '#shared/table/entities/task';
import { localClient } from '#local/dynamodb-local';
import { dynamoEndpoint, freshDb } from '#tests/support/db';
import { audit, principal, recorded } from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
/** The same table through the previews' read-only client (its own client, as in the previews handler). */
let ro: Db;
const T = 'acme';
const actor = principal('operator-1', {}, true);
const clock = systemClock;

const itemCount = async () =>
  (await db.doc.send(new ScanCommand({ TableName: db.tableName, Select: 'COUNT' }))).Count ?? 0;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  ro = readOnly({ ...db, doc: documentClient(localClient(dynamoEndpoint())) });
  await createException(
    { exceptions: stores.exceptions, clock },
    actor,
    T,
    parse(BusinessExceptionCreate, {
      exception_type: 'invoice.overdue',
      subject_type: 'invoice',
      subject_id: 'INV-1',
      title: 'Overdue',
      summary: 'Invoice INV-1 is overdue',
    }),
  );
  const invoice = await createDocument(
    { documents: stores.documents, clock },
    actor,
    T,
    parse(DocumentCreate, {
      document_type: 'invoice',
      number: 'INV-1',
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '100.00',
      issued_on: '2026-01-01',
      due_on: '2026-01-31',
    }),
  );
  await changeDocumentStatus(
    { documents: stores.documents, zones: stores.zones, clock },
    actor,
    T,
    invoice.id,
    {
      status: 'open',
    },
  );
  await createDocument(
    { documents: stores.documents, clock },
    actor,
    T,
    parse(DocumentCreate, {
      document_type: 'payment',
      number: 'PAY-1',
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '90.00',
      issued_on: '2026-02-01',
      applies_to: invoice.id,
    }),
  );
  await createTask({ tasks: stores.tasks, clock }, actor, T, parse(TaskCreate, { title: 'Call Globex' }));
});

describe('the previews read-only table client', () => {
  it('refuses every write command before it reaches the table', async () => {
    const before = await itemCount();
    const key = { pk: 'X', sk: 'Y' };
    const writes = [
      new PutCommand({ TableName: ro.tableName, Item: key }),
      new UpdateCommand({
        TableName: ro.tableName,
        Key: key,
        UpdateExpression: 'SET a = :a',
        ExpressionAttributeValues: { ':a': 1 },
      }),
      new DeleteCommand({ TableName: ro.tableName, Key: key }),
      new TransactWriteCommand({ TransactItems: [{ Put: { TableName: ro.tableName, Item: key } }] }),
      new BatchWriteCommand({ RequestItems: { [ro.tableName]: [{ PutRequest: { Item: key } }] } }),
    ];
    for (const command of writes) {
      await expect(ro.doc.send(command as never)).rejects.toBeInstanceOf(ReadOnlyViolation);
    }
    // A store's write through it fails too: a use case given the read-only Db cannot persist.
    const e = (await previewReader(ro).exceptions(T))[0]!;
    await expect(
      exceptionStore(ro).create(
        { ...e, id: 'another' },
        audit(T, 'exception'),
        recorded('exception.created', e),
      ),
    ).rejects.toBeInstanceOf(ReadOnlyViolation);
    expect(await itemCount()).toBe(before);
  });

  it('reads each kind of record back as the stores read it', async () => {
    const reader = previewReader(ro);
    const [exceptions, documents, tasks, notifications] = await Promise.all([
      reader.exceptions(T),
      reader.documents(T),
      reader.tasks(T),
      reader.notifications(T),
    ]);
    expect(exceptions).toEqual((await stores.exceptions.list(T, {}, { limit: 100 })).items.reverse());
    expect(documents).toEqual((await stores.documents.list(T, {}, { limit: 100 })).items.reverse());
    expect(tasks).toEqual((await stores.tasks.list(T, {}, { limit: 100 })).items.reverse());
    expect(notifications).toEqual([]);
    expect(await reader.exceptions('other-tenant')).toEqual([]);
  });

  it('a preview over the table finds the underpaid, overdue invoice and writes nothing', async () => {
    const before = await itemCount();
    const r = await previewDetection({ reader: previewReader(ro), clock }, T, {
      rule_set: 'payment_reconciliation',
      limit: 50,
    });
    expect(r.observations.map((o) => o.code).sort()).toEqual([
      'overdue_open_invoice',
      'payment_amount_mismatch',
    ]);
    expect(r.observations.find((o) => o.code === 'payment_amount_mismatch')!.details.difference).toBe(
      '10.00',
    );
    expect(await itemCount()).toBe(before);
  });
});

describe('what a preview reads', () => {
  it('reads the notifications of the tenant as the store reads them', async () => {
    const tenantId = 'notified';
    const notifications = notificationStore(db);
    const deps = { notifications, clock, allowLoopback: false };
    for (const body of ['Stock is low', 'Stock is out'])
      await createNotification(deps, actor, tenantId, { channel: 'telegram', recipient: '4242', body });
    const read = await previewReader(ro).notifications(tenantId);
    expect(read).toHaveLength(2);
    expect(read).toEqual((await notifications.list(tenantId, {}, { limit: 10 })).items.reverse());
  });

  it('reads the oldest PREVIEW_READ_MAX records of a larger partition, across pages, and no more', async () => {
    const tenantId = 'large';
    const first = await createTask(
      { tasks: stores.tasks, clock },
      actor,
      tenantId,
      parse(TaskCreate, { title: 'seed' }),
    );
    // Large enough that DynamoDB ends the first page at 1 MB, before PREVIEW_READ_MAX records.
    const description = 'x'.repeat(1500);
    const items = Array.from({ length: PREVIEW_READ_MAX }, () =>
      task.item({ ...first, id: newId(), description }),
    );
    for (let i = 0; i < items.length; i += 100)
      await Promise.all(
        [0, 25, 50, 75].map((at) =>
          db.doc.send(
            new BatchWriteCommand({
              RequestItems: {
                [db.tableName]: items.slice(i + at, i + at + 25).map((Item) => ({ PutRequest: { Item } })),
              },
            }),
          ),
        ),
      );
    const page = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': task.key(first).pk },
        Limit: PREVIEW_READ_MAX,
      }),
    );
    expect(page.Items!.length).toBeLessThan(PREVIEW_READ_MAX);
    expect(page.LastEvaluatedKey).toBeDefined();

    const read = await previewReader(ro).tasks(tenantId);
    const oldest = [first.id, ...items.map((i) => i.id as string)].sort().slice(0, PREVIEW_READ_MAX);
    expect(read.map((t) => t.id)).toEqual(oldest);
    expect(read[1]).toMatchObject({ tenant_id: tenantId, title: 'seed', description });
  });
});
