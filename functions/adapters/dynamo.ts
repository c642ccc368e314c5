import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type CursorScope, decodeCursor, encodeCursor } from '#shared/kernel/cursor';
import type { Page, PageRequest } from '#shared/kernel/page';
import { type IndexName, keyAttributes } from '#shared/table/table';
import type { TableConfig } from '#functions/config';

/**
 * The DynamoDB edge: one client per function (created when its handler loads, reused by every
 * invocation), transactions that report which condition failed, and signed paged queries.
 */

export interface Db {
  doc: DynamoDBDocumentClient;
  tableName: string;
  cursorSecret: string;
}

export const documentClient = (client = new DynamoDBClient({})): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

/** The configured table, through a new client. */
export function dbFor({ tableName, cursorSecret, client }: TableConfig): Db {
  if (!tableName || !cursorSecret) throw new Error('TABLE_NAME and OPS_CURSOR_SECRET must be set');
  return { doc: documentClient(new DynamoDBClient(client ?? {})), tableName, cursorSecret };
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Transaction items without the table name; `transact` adds it. */
export type WriteOp =
  | { Put: Omit<NonNullable<TransactItem['Put']>, 'TableName'> }
  | { Update: Omit<NonNullable<TransactItem['Update']>, 'TableName'> }
  | { Delete: Omit<NonNullable<TransactItem['Delete']>, 'TableName'> }
  | { ConditionCheck: Omit<NonNullable<TransactItem['ConditionCheck']>, 'TableName'> };

export type TransactResult = { ok: true } | { ok: false; failed: number[] };

/**
 * One TransactWriteItems. A cancelled transaction whose reasons are condition failures is an
 * answer (`failed` lists the positions), not an error; anything else propagates.
 */
export async function transact(db: Db, ops: WriteOp[]): Promise<TransactResult> {
  const TransactItems = ops.map((op) => {
    const [kind, body] = Object.entries(op)[0] as [string, object];
    return { [kind]: { ...body, TableName: db.tableName } } as TransactItem;
  });
  try {
    await db.doc.send(new TransactWriteCommand({ TransactItems }));
    return { ok: true };
  } catch (err) {
    const reasons = (err as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((err as { name?: string }).name === 'TransactionCanceledException' && reasons) {
      const failed = reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
      if (
        failed.length > 0 &&
        reasons.every((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'None')
      ) {
        return { ok: false, failed };
      }
    }
    throw err;
  }
}

export const putNew = (item: Record<string, unknown>): WriteOp => ({
  Put: { Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** A state transition: the Put applies only while the stored item's status is still `expected`. */
export const putIfStatus = (item: Record<string, unknown>, expected: string) => ({
  Put: {
    Item: item,
    ConditionExpression: '#status = :expected',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':expected': expected },
  },
});

/** What a Query reads: one partition of the table or of an index, optionally narrowed by sort key. */
export interface KeyQuery {
  index?: IndexName | undefined;
  partition: string;
  /** Optional sort-key condition over `:sk` (and `:sk2`), written against `#sk`. */
  sortCondition?: { expression: string; values: Record<string, string> };
  /** Ascending sort-key order; lists default to newest (highest) first. */
  forward?: boolean;
}

export const beginsWith = (prefix: string) => ({
  expression: 'begins_with(#sk, :sk)',
  values: { ':sk': prefix },
});

export const below = (bound: string) => ({ expression: '#sk < :sk', values: { ':sk': bound } });

const keyCondition = (q: KeyQuery) => {
  const keyAttrs = keyAttributes(q.index ?? 'table');
  const names: Record<string, string> = { '#pk': keyAttrs.partitionKey };
  const values: Record<string, unknown> = { ':pk': q.partition };
  let expression = '#pk = :pk';
  if (q.sortCondition) {
    names['#sk'] = keyAttrs.sortKey;
    Object.assign(values, q.sortCondition.values);
    expression += ` AND ${q.sortCondition.expression}`;
  }
  return {
    IndexName: q.index,
    KeyConditionExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: q.forward ?? false,
  } satisfies Omit<QueryCommandInput, 'TableName'>;
};

export interface PageQuery<T> extends KeyQuery {
  scope: CursorScope;
  filters?: Record<string, string | undefined>;
  /** Filter values that items without the attribute also match (items written before it existed). */
  absentMeans?: Record<string, string>;
  page: PageRequest;
  map: (item: Record<string, unknown>) => T;
}

/**
 * One Query for one page. `filters` become an equality FilterExpression; the cursor is the
 * signed LastEvaluatedKey, bound to `scope`.
 */
export async function queryPage<T>(db: Db, q: PageQuery<T>): Promise<Page<T>> {
  const input = keyCondition(q);
  const filterParts: string[] = [];
  for (const [attr, value] of Object.entries(q.filters ?? {})) {
    if (value === undefined) continue;
    input.ExpressionAttributeNames[`#f_${attr}`] = attr;
    input.ExpressionAttributeValues[`:f_${attr}`] = value;
    const equal = `#f_${attr} = :f_${attr}`;
    filterParts.push(
      q.absentMeans?.[attr] === value ? `(attribute_not_exists(#f_${attr}) OR ${equal})` : equal,
    );
  }
  const out = await db.doc.send(
    new QueryCommand({
      ...input,
      TableName: db.tableName,
      FilterExpression: filterParts.length ? filterParts.join(' AND ') : undefined,
      Limit: q.page.limit,
      ExclusiveStartKey: q.page.cursor ? decodeCursor(db.cursorSecret, q.scope, q.page.cursor) : undefined,
    }),
  );
  return {
    items: (out.Items ?? []).map(q.map),
    next_cursor: out.LastEvaluatedKey ? encodeCursor(db.cursorSecret, q.scope, out.LastEvaluatedKey) : null,
  };
}

/** One page of a Query from `start` (the previous page's LastEvaluatedKey). */
export const queryFrom = (db: Db, q: KeyQuery, start?: Record<string, unknown>, limit?: number) =>
  db.doc.send(
    new QueryCommand({ ...keyCondition(q), TableName: db.tableName, ExclusiveStartKey: start, Limit: limit }),
  );

/** Every item of a Query, for the few lists that are small by design (a user's memberships, sessions). */
export async function queryAll(db: Db, q: KeyQuery) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryFrom(db, q, start);
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Copies the listed fields of an item, so key and internal attributes never reach a record. */
export const pick = <K extends string>(item: Record<string, unknown>, fields: readonly K[]) =>
  Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as Record<K, unknown>;
