import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import { DEFAULT_TIME_ZONE } from '#shared/kernel/time-zone';
import { tenant } from '#shared/table/entities/tenant';
import type { Db } from './dynamo';

/**
 * The tenant's time zone: one projected GetItem, so that route groups and workers turning dates
 * into instants do not bundle the tenant store.
 */
export const tenantZones = (db: Db): TenantZoneReader => ({
  async timeZoneOf(tenantId) {
    const out = await db.doc.send(
      new GetCommand({
        TableName: db.tableName,
        Key: tenant.key({ id: tenantId }),
        ProjectionExpression: '#tz',
        ExpressionAttributeNames: { '#tz': 'timezone' },
      }),
    );
    return (out.Item?.timezone as string | undefined) ?? DEFAULT_TIME_ZONE;
  },
});
