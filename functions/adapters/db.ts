import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The table a store works on: its client, its name, the secret its list cursors are signed with. */
export interface Db {
  doc: DynamoDBDocumentClient;
  tableName: string;
  cursorSecret: string;
}
