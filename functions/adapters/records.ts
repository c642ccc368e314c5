import { GetCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Key } from '#shared/table/table';
import type { Db } from './db';

/**
 * The reads and single writes every store makes of a record, written once: get by key (a missing
 * item is `undefined`, which the use case answers as not found), put if absent, and a write that
 * applies only while a condition on the stored item holds. The item-to-record mapping they take is
 * the record declaration's typed reader (shared/table/entity.ts `reader`).
 */

export interface GetOptions {
  /**
   * A strongly consistent read (the default): a record just written is seen. Off only where the
   * store read eventually before (half the read units), such as the tenant on every request.
   */
  consistent?: boolean;
}

/** The item of `key`, or undefined. */
export const getItem = async (db: Db, key: Key, { consistent = true }: GetOptions = {}) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: consistent }))).Item;

/** The record of `key` through its reader, or undefined when there is none (not found). */
export const getRecord = async <R>(
  db: Db,
  key: Key,
  read: (item: Record<string, unknown>) => R,
  options?: GetOptions,
): Promise<R | undefined> => {
  const item = await getItem(db, key, options);
  return item ? read(item) : undefined;
};

/** Whether an error is DynamoDB's answer that a write's condition did not hold (not a failure). */
export const isConditionFailure = (err: unknown) =>
  (err as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

/** True when the conditional write applied, false when its condition did not hold; errors propagate. */
export const applied = async (write: Promise<unknown>): Promise<boolean> => {
  try {
    await write;
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
};

/** A condition on the stored item, in DynamoDB's terms. */
export interface Condition {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** A Put (in a transaction) that applies only while `condition` holds on the stored item. */
export const putIf = (item: Record<string, unknown>, condition: Condition) => ({
  Put: { Item: item, ...condition },
});

/** A Put (in a transaction) of a new item: its condition fails when an item of its key exists. */
export const putNew = (item: Record<string, unknown>) =>
  putIf(item, { ConditionExpression: 'attribute_not_exists(pk)' });

/** The condition of a state transition: the stored item's status is still `expected`. */
export const statusIs = (expected: string): Condition => ({
  ConditionExpression: '#status = :expected',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':expected': expected },
});

/** A state transition: the Put applies only while the stored item's status is still `expected`. */
export const putIfStatus = (item: Record<string, unknown>, expected: string) =>
  putIf(item, statusIs(expected));

/** The single Put of a new item: false, with nothing written, when an item of its key exists. */
export const putIfAbsent = (db: Db, item: Record<string, unknown>) =>
  applied(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );

/** `putIf` as a single write: false when the condition did not hold. */
export const putOnly = (db: Db, item: Record<string, unknown>, condition: Condition) =>
  applied(db.doc.send(new PutCommand({ TableName: db.tableName, ...putIf(item, condition).Put })));

/** A single UpdateItem (without the table name); false when its condition did not hold. */
export const updateOnly = (db: Db, update: Omit<UpdateCommandInput, 'TableName'>) =>
  applied(db.doc.send(new UpdateCommand({ ...update, TableName: db.tableName })));
