import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { documentClient } from '#functions/adapters/dynamo';
import { backfillIndexKeys } from '#functions/adapters/index-backfill';

/**
 * `npx tsx scripts/backfill-index-keys.ts --table <name>`: once, after deploying the exception
 * status and type indexes and the review item kind index over a table that already holds
 * exceptions and review items, gives those items the index keys they were written without (docs/decisions.md,
 * lists at any size). Idempotent. Credentials and region come from the standard AWS chain;
 * AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local.
 */
const { values } = parseArgs({ options: { table: { type: 'string' } } });
if (!values.table) {
  console.error('usage: npx tsx scripts/backfill-index-keys.ts --table <table-name>');
  process.exit(2);
}
// No cursor is signed here; the Db shape only needs a value.
const db = { doc: documentClient(), tableName: values.table, cursorSecret: randomBytes(32).toString('hex') };
console.log(`updated ${await backfillIndexKeys(db)} items`);
