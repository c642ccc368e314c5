import { randomBytes } from 'node:crypto';
import { type DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { createStores } from '#functions/adapters/stores';
import { LOCAL_AWS_ENV, localClient } from '#local/dynamodb-local';
import { createException } from '#shared/domain/exceptions/use-cases';
import { login } from '#shared/domain/identity/sessions';
import { addMember, createTenant } from '#shared/domain/identity/tenants';
import { newId, systemClock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { hashPassword } from '#shared/kernel/secrets';

/**
 * The data every measurement runs against: a seeded table (and its copy), and the Lambda
 * environment a bundle reads it with. The events sent to it are `requests.ts`.
 */

export interface Fixture {
  tableName: string;
  cursorSecret: string;
  tenantId: string;
  email: string;
  password: string;
  principal: Principal;
  /** A live bearer token, for the authorizer. */
  accessToken: string;
  /** An exception that stays as it is (get). */
  exceptionId: string;
  /** Open exceptions, one per status change. */
  openExceptionIds: string[];
  /**
   * Each open exception's twin, open too, for the warm floor to change in its place: the floor
   * writes to the same table as the handler, where the handler's target is no longer open.
   */
  floorTwins: ReadonlyMap<string, string>;
}

/** The environment Lambda sets for a function, plus this service's configuration. */
export function lambdaEnv(name: string, endpoint: string, fx: Pick<Fixture, 'tableName' | 'cursorSecret'>) {
  return {
    ...LOCAL_AWS_ENV,
    AWS_SESSION_TOKEN: 'local',
    AWS_DEFAULT_REGION: LOCAL_AWS_ENV.AWS_REGION,
    AWS_LAMBDA_FUNCTION_NAME: `bench-ops-platform-${name}`,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/bench-ops-platform-${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'bench',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001',
    AWS_NODEJS_CONNECTION_REUSE_ENABLED: '1',
    LAMBDA_TASK_ROOT: '/var/task',
    TZ: ':UTC',
    OPS_STAGE: 'bench',
    POWERTOOLS_SERVICE_NAME: 'ops-platform',
    POWERTOOLS_METRICS_NAMESPACE: 'OpsPlatform',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: fx.tableName,
    OPS_CURSOR_SECRET: fx.cursorSecret,
  };
}

export const dbFor = (endpoint: string, tableName: string, cursorSecret: string): Db => ({
  doc: documentClient(localClient(endpoint)),
  tableName,
  cursorSecret,
});

/** The exception the seed records and the `create exception` key route sends. */
export const EXCEPTION_INPUT = {
  exception_type: 'invoice.mismatch',
  subject_type: 'invoice',
  subject_id: 'INV-2026-0042',
  title: 'Invoice total differs from the purchase order',
  summary: 'The invoice total is 1,240.00 EUR; the purchase order says 1,200.00 EUR.',
  severity: 'warning' as const,
  evidence: { invoice_total: '1240.00', po_total: '1200.00', currency: 'EUR' },
  impact: { amount: '40.00', currency: 'EUR' },
};

/**
 * A user who owns a tenant with `exceptions` listable exceptions, and `openForChanges` more (each
 * with an open twin for the warm floor when told).
 */
export async function seed(
  endpoint: string,
  tableName: string,
  options: { exceptions?: number; openForChanges?: number; floorTwins?: boolean } = {},
): Promise<Fixture> {
  const cursorSecret = randomBytes(32).toString('base64url');
  const db = dbFor(endpoint, tableName, cursorSecret);
  const stores = createStores(db);
  const password = randomBytes(12).toString('base64url');
  const user = {
    id: newId(),
    email: `bench-${randomBytes(4).toString('hex')}@ops.test`,
    display_name: 'Bench User',
    created_at: new Date().toISOString(),
    platform_roles: [] as 'platform_admin'[],
  };
  await stores.identity.createUser({ user, password_hash: await hashPassword(password) }, null);
  const tenantId = `t-${randomBytes(4).toString('hex')}`;
  const principal: Principal = {
    user_id: user.id,
    token_id: 'bench',
    email: user.email,
    display_name: user.display_name,
    platform_roles: [],
    memberships: { [tenantId]: 'owner' },
  };
  // A real tenant and membership, so routes that look members up (notification recipients) find them.
  const admin = { ...principal, platform_roles: ['platform_admin' as const], memberships: {} };
  const tenantDeps = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
  await createTenant(tenantDeps, admin, { id: tenantId, name: 'Bench Tenant' });
  await addMember(tenantDeps, admin, tenantId, {
    email: user.email,
    display_name: user.display_name,
    role: 'owner',
  });
  const deps = { exceptions: stores.exceptions, clock: systemClock };
  const ids: string[] = [];
  const changes = options.openForChanges ?? 0;
  const open = options.floorTwins ? changes : 0;
  const total = (options.exceptions ?? 25) + changes + open;
  for (let i = 0; i < total; i++) {
    ids.push((await createException(deps, principal, tenantId, EXCEPTION_INPUT)).id);
  }
  const identity = { identity: stores.identity, clock: systemClock, sessionTtlSeconds: 3600 };
  const { access_token } = await login(identity, { email: user.email, password });
  db.doc.destroy();
  return {
    tableName,
    cursorSecret,
    tenantId,
    email: user.email,
    password,
    principal: { ...principal },
    accessToken: access_token,
    exceptionId: ids[0]!,
    openExceptionIds: ids.slice(options.exceptions ?? 25, total - open),
    floorTwins: new Map(ids.slice(total - open).map((twin, k) => [ids[total - changes - open + k]!, twin])),
  };
}

/** Copies every item of one table into another (the floor replays against an identical copy). */
export async function copyTable(endpoint: string, from: string, to: string): Promise<void> {
  const client: DynamoDBClient = localClient(endpoint);
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) await client.send(new PutItemCommand({ TableName: to, Item: item }));
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  client.destroy();
}
