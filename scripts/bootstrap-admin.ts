import { parseArgs } from 'node:util';
import { documentClient } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { bootstrapAdmin } from '#shared/domain/identity/tenants';
import { systemClock } from '#shared/kernel/ids';
import { SERVICE } from '#shared/kernel/names';
import { PLATFORM_ADMIN } from '#shared/kernel/policy';

/**
 * `npm run bootstrap:admin -- --stage <stage>` (or `--table <name>`): the first platform admin of
 * a cloud deployment (docs/api.md section 3), through the same `bootstrapAdmin` the local runtime
 * calls at start-up. The e-mail and password come from OPS_BOOTSTRAP_ADMIN_EMAIL and
 * OPS_BOOTSTRAP_ADMIN_PASSWORD, never from the command line, so the password stays out of shell
 * history and process listings. Credentials and region come from the standard AWS chain
 * (AWS_PROFILE, AWS_REGION, ...); AWS_ENDPOINT_URL_DYNAMODB points it at DynamoDB Local.
 *
 * The table is named by `--table`, or by `--stage`: the stateful stack gives it the fixed physical
 * name `<stage>-ops-platform` (its `TableName` output), so no CloudFormation lookup is needed.
 *
 * Exit status: 0 when the admin was created or already exists as a platform admin; 1 when the
 * e-mail belongs to a user who is not a platform admin (nothing is changed) or DynamoDB fails
 * (e.g. no such table); 2 on bad input (nothing is read or written).
 */

const MIN_PASSWORD_LENGTH = 12;
/** The stack's own rule (infra/config.ts); the table's physical name is `<stage>-ops-platform`. */
const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,11}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USAGE = `usage: OPS_BOOTSTRAP_ADMIN_EMAIL=... OPS_BOOTSTRAP_ADMIN_PASSWORD=... \\
  npm run bootstrap:admin -- --stage <stage> | --table <table-name>`;

function fail(message: string): never {
  console.error(`bootstrap-admin: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The table from `--table`, or the stage's table (`<stage>-ops-platform`, infra/config.ts). */
function tableFromArgs(): string {
  let values: { table?: string; stage?: string };
  try {
    ({ values } = parseArgs({ options: { table: { type: 'string' }, stage: { type: 'string' } } }));
  } catch (err) {
    fail((err as Error).message);
  }
  const { table, stage } = values;
  if (table !== undefined && stage !== undefined) fail('pass --table or --stage, not both');
  if (table) return table;
  if (stage === undefined) fail('name the deployment with --stage <stage> or the table with --table <name>');
  if (!STAGE_PATTERN.test(stage)) fail(`--stage must match ${STAGE_PATTERN}`);
  return `${stage}-${SERVICE}`;
}

const tableName = tableFromArgs();
const email = process.env.OPS_BOOTSTRAP_ADMIN_EMAIL?.trim().toLowerCase() ?? '';
const password = process.env.OPS_BOOTSTRAP_ADMIN_PASSWORD ?? '';
if (!email || !password) fail('OPS_BOOTSTRAP_ADMIN_EMAIL and OPS_BOOTSTRAP_ADMIN_PASSWORD must both be set');
if (!EMAIL_PATTERN.test(email)) fail('OPS_BOOTSTRAP_ADMIN_EMAIL is not an e-mail address');
if (password.length < MIN_PASSWORD_LENGTH)
  fail(`OPS_BOOTSTRAP_ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`);

// Paging cursors are never issued here, so the cursor secret is not needed.
const doc = documentClient();
const identity = identityStore({ doc, tableName, cursorSecret: '' });
try {
  const created = await bootstrapAdmin({ identity, clock: systemClock }, email, password);
  if (created) {
    console.log(`created platform admin ${email} in table ${tableName}`);
  } else {
    const existing = await identity.findLogin(email);
    if (existing?.user.platform_roles.includes(PLATFORM_ADMIN)) {
      console.log(`platform admin ${email} already exists in table ${tableName}; nothing changed`);
    } else {
      console.error(
        `bootstrap-admin: ${email} already exists in table ${tableName} but is not a platform admin; nothing changed`,
      );
      process.exitCode = 1;
    }
  }
} catch (err) {
  const name = (err as { name?: string }).name;
  console.error(
    name === 'ResourceNotFoundException'
      ? `bootstrap-admin: table ${tableName} not found (check --stage/--table and AWS_REGION)`
      : `bootstrap-admin: ${(err as Error).message}`,
  );
  process.exitCode = 1;
} finally {
  doc.destroy();
}
