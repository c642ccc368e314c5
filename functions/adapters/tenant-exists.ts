import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tenant } from '#shared/table/entities/tenant';
import type { TenantExists } from '#functions/http/guard';
import type { Db } from './dynamo';

/**
 * For platform_admin on a tenant it is not a member of: one key-only GetItem. Route groups other
 * than tenants need nothing else of the tenant store, so they do not bundle it.
 */
export const tenantExistsIn =
  (db: Db): TenantExists =>
  async (tenantId) => {
    const out = await db.doc.send(
      new GetCommand({
        TableName: db.tableName,
        Key: tenant.key({ id: tenantId }),
        ProjectionExpression: 'pk',
      }),
    );
    return out.Item !== undefined;
  };
