import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { createStores } from '#functions/adapters/stores';
import { ensureTable, localClient } from '#local/dynamodb-local';

export const dynamoEndpoint = (): string => inject('dynamoEndpoint');

export const uniqueTableName = (prefix = 'test') => `${prefix}-${randomUUID().slice(0, 8)}`;

/** A fresh table in the shared DynamoDB Local, and the stores over it. */
export async function freshDb(): Promise<{ db: Db; stores: ReturnType<typeof createStores> }> {
  const endpoint = dynamoEndpoint();
  const tableName = uniqueTableName();
  await ensureTable(endpoint, tableName);
  const db: Db = {
    doc: documentClient(localClient(endpoint)),
    tableName,
    cursorSecret: randomBytes(32).toString('hex'),
  };
  return { db, stores: createStores(db) };
}

/** Writes items straight into the table, 25 per BatchWriteItem (history a list must not read). */
export async function loadItems(db: Db, items: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let requests: Record<string, unknown>[] | undefined = items
      .slice(i, i + 25)
      .map((Item) => ({ PutRequest: { Item } }));
    while (requests?.length) {
      const out = await db.doc.send(
        new BatchWriteCommand({ RequestItems: { [db.tableName]: requests as never } }),
      );
      requests = out.UnprocessedItems?.[db.tableName] as Record<string, unknown>[] | undefined;
    }
  }
}

/**
 * The same table through a client that records every Query it sends: how many, and how many
 * items each evaluated (`ScannedCount`, what a Query is billed for), to prove a list reads only
 * what it returns.
 */
export function countingQueries(db: Db): { db: Db; queries: { scanned: number; index?: string }[] } {
  const queries: { scanned: number; index?: string }[] = [];
  const doc = documentClient(localClient(dynamoEndpoint()));
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (context.commandName === 'QueryCommand') {
        const input = args.input as { IndexName?: string };
        const scanned = (out.output as { ScannedCount?: number }).ScannedCount ?? 0;
        queries.push({ scanned, ...(input.IndexName ? { index: input.IndexName } : {}) });
      }
      return out;
    },
    { step: 'initialize', name: 'countQueries' },
  );
  return { db: { ...db, doc }, queries };
}
