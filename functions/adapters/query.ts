import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CursorScope, decodeCursor, encodeCursor } from '#shared/kernel/cursor';
import type { Page, PageRequest } from '#shared/kernel/page';
import { type IndexName, keyAttributes } from '#shared/table/table';
import type { Db } from './db';

/**
 * Queries of the table: key conditions, signed paged queries (filled when filtered) and whole
 * small partitions.
 */

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

export const equals = (value: string) => ({ expression: '#sk = :sk', values: { ':sk': value } });

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
 * Query calls one response may make to fill a page whose filter has no key of its own: the
 * filters the API offers on a tenant's growing history have indexes (docs/data-model.md), so a
 * residual filter is a narrowing of an already selective partition; the bound keeps a rare one
 * from reading a whole history in one request (its page then ends early with a cursor).
 */
export const FILL_READS = 10;

/** The most items one later Query of a page fill evaluates (one Query reads at most 1 MB anyway). */
const FILL_BATCH = 200;

/**
 * One page: a Query on the key condition, with `filters` as an equality FilterExpression. Without
 * filters that is one Query of `limit` items. With filters, a Query that evaluated `limit` items
 * may match fewer, so the page is filled by reading on (up to FILL_READS Queries) until `limit`
 * items match or the partition ends (docs/api.md section 4: a page holds `limit` items, or all
 * that are left). The cursor is the signed key of the last item the page returns (or the Query's
 * LastEvaluatedKey when it returned them all), bound to `scope`.
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
  const limit = q.page.limit;
  const items: Record<string, unknown>[] = [];
  let start = q.page.cursor ? decodeCursor(db.cursorSecret, q.scope, q.page.cursor) : undefined;
  for (let reads = 0; ; reads++) {
    const out = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.tableName,
        FilterExpression: filterParts.length ? filterParts.join(' AND ') : undefined,
        Limit: reads === 0 ? limit : Math.max(limit - items.length, FILL_BATCH),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
    if (items.length > limit) {
      // Read past the page: it ends at its last item, and the cursor resumes after that one.
      items.length = limit;
      start = keyOf(items[limit - 1]!, q.index);
    }
    if (!start || items.length >= limit || reads + 1 >= FILL_READS) break;
  }
  return {
    items: items.map(q.map),
    next_cursor: start ? encodeCursor(db.cursorSecret, q.scope, start) : null,
  };
}

/** An item's key in the table, and in `index` when it is read through one: a Query's ExclusiveStartKey. */
const keyOf = (item: Record<string, unknown>, index?: IndexName) => {
  const names = [keyAttributes('table'), ...(index ? [keyAttributes(index)] : [])];
  return Object.fromEntries(
    names.flatMap((n) => [
      [n.partitionKey, item[n.partitionKey]],
      [n.sortKey, item[n.sortKey]],
    ]),
  );
};

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
