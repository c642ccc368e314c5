import {
  BatchGetItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { WireCall } from './capture';

const COMMANDS = {
  BatchGetItem: BatchGetItemCommand,
  GetItem: GetItemCommand,
  PutItem: PutItemCommand,
  Query: QueryCommand,
  TransactWriteItems: TransactWriteItemsCommand,
  UpdateItem: UpdateItemCommand,
} as const;

/** Sends recorded DynamoDB wire requests again through an unbundled low-level client (tests). */
export async function replay(client: DynamoDBClient, calls: WireCall[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const call of calls) {
    const name = call.target.slice(call.target.indexOf('.') + 1) as keyof typeof COMMANDS;
    const Command = COMMANDS[name] as unknown as (new (input: unknown) => never) | undefined;
    if (!Command) throw new Error(`replay cannot send ${call.target}`);
    out.push(await client.send(new Command(call.input)));
  }
  return out;
}
