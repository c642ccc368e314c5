import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
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
