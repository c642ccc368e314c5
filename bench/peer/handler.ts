/**
 * The peer of issue 28 item 5: `GET` an exception and change its status with its audit event,
 * written the way most teams write a Lambda API: Express on Lambda through serverless-http,
 * classic zod, the full Powertools logger, the DynamoDB document client, one file. It reads and
 * writes the bench's table (the exception items the service stores) and is bundled by the same
 * esbuild settings as the functions (bench/lib/peer.ts). It lives under bench/ only and is never
 * deployed: it is what the service's own handlers are measured against, not a second service.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import serverless from 'serverless-http';
import { z } from 'zod';

const logger = new Logger({ serviceName: 'peer' });
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.TABLE_NAME!;

const Params = z.object({ tenant_id: z.string().min(1).max(64), exception_id: z.string().min(1).max(64) });
const StatusChange = z.object({
  status: z.enum(['acknowledged', 'resolved']),
  note: z.string().max(2000).optional(),
});
const NEXT: Record<string, string[]> = { open: ['acknowledged', 'resolved'], acknowledged: ['resolved'] };
const READ_ROLES = ['owner', 'manager', 'operator', 'accountant', 'support', 'viewer'];
const WRITE_ROLES = ['owner', 'manager', 'operator'];

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

interface Principal {
  user_id: string;
  memberships: Record<string, string>;
}

const principalOf = (req: Request): Principal => {
  const context = (req as Request & { requestContext?: { authorizer?: { lambda?: { principal?: string } } } })
    .requestContext;
  const raw = context?.authorizer?.lambda?.principal;
  if (!raw) throw new HttpError(401, 'unauthorized');
  return JSON.parse(raw) as Principal;
};

const authorize = (req: Request, tenantId: string, roles: string[]) => {
  const principal = principalOf(req);
  if (!roles.includes(principal.memberships[tenantId] ?? '')) throw new HttpError(403, 'forbidden');
  return principal;
};

const keyOf = (tenantId: string, id: string) => ({ pk: `TENANT#${tenantId}#EXCEPTION`, sk: id });

const publicFields = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !/^(pk|sk|gsi\d(pk|sk)|entity)$/.test(k)));

async function getException(tenantId: string, id: string) {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: keyOf(tenantId, id) }));
  if (!out.Item) throw new HttpError(404, 'not_found');
  return out.Item;
}

const app = express();
app.use(express.json());
app.use((req: Request, _res: Response, next: NextFunction) => {
  logger.info('request', { method: req.method, path: req.path });
  next();
});

app.get('/tenants/:tenant_id/exceptions/:exception_id', async (req, res) => {
  const params = Params.parse(req.params);
  authorize(req, params.tenant_id, READ_ROLES);
  res.json(publicFields(await getException(params.tenant_id, params.exception_id)));
});

app.post('/tenants/:tenant_id/exceptions/:exception_id/status', async (req, res) => {
  const params = Params.parse(req.params);
  const body = StatusChange.parse(req.body);
  const principal = authorize(req, params.tenant_id, WRITE_ROLES);
  const item = await getException(params.tenant_id, params.exception_id);
  const from = String(item.status);
  if (!NEXT[from]?.includes(body.status)) throw new HttpError(409, 'invalid_transition');
  const now = new Date().toISOString();
  const changed = { ...item, status: body.status, updated_at: now };
  const auditId = randomUUID();
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: keyOf(params.tenant_id, params.exception_id),
              UpdateExpression: 'SET #status = :to, updated_at = :now',
              ConditionExpression: '#status = :from',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':to': body.status, ':from': from, ':now': now },
            },
          },
          {
            Put: {
              TableName: TABLE,
              Item: {
                pk: `TENANT#${params.tenant_id}#AUDIT`,
                sk: `${now}#${auditId}`,
                id: auditId,
                tenant_id: params.tenant_id,
                event_type: `exception.${body.status}`,
                actor_id: principal.user_id,
                entity_type: 'exception',
                entity_id: params.exception_id,
                summary: `exception ${from} -> ${body.status}`,
                metadata: { note: body.note ?? null },
                created_at: now,
              },
            },
          },
        ],
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'TransactionCanceledException') throw new HttpError(409, 'conflict');
    throw err;
  }
  res.json(publicFields(changed));
});

app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (err instanceof z.ZodError) {
    res.status(400).json({ error: { code: 'validation_failed', details: err.issues } });
    return;
  }
  if (err instanceof HttpError) {
    res.status(err.status).json({ error: { code: err.code } });
    return;
  }
  logger.error('unhandled', err as Error);
  res.status(500).json({ error: { code: 'internal' } });
});

export const handler = serverless(app, {
  request: (_req: unknown, _event: unknown, context: Parameters<typeof logger.addContext>[0]) => {
    logger.addContext(context);
  },
});
