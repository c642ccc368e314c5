import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { BusinessException, ExceptionStore } from '#shared/domain/exceptions/ports';
import { EXCEPTION_FIELDS } from '#shared/api/schemas/exceptions';
import { ENTITY } from '#shared/table/table';
import * as keys from '#shared/table/keys';
import { auditPut } from './audit-store';
import { type Db, pick, putNew, queryPage, transact } from './dynamo';

const FIELDS = EXCEPTION_FIELDS;
const toException = (item: Record<string, unknown>) => pick(item, FIELDS) as unknown as BusinessException;

const exceptionItem = (e: BusinessException) => ({
  ...keys.exception(e.tenant_id, e.id),
  ...keys.exceptionStatusIndex(e.tenant_id, e.status, e.id),
  ...keys.exceptionSubjectIndex(e.tenant_id, e.subject_type, e.subject_id, e.id),
  entity: ENTITY.exception,
  ...e,
});

export const exceptionStore = (db: Db): ExceptionStore => ({
  async create(exception, audit) {
    const result = await transact(db, [putNew(exceptionItem(exception)), auditPut(audit)]);
    if (!result.ok) throw new Error('exception id collision');
  },

  async get(tenantId, id) {
    const out = await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: keys.exception(tenantId, id), ConsistentRead: true }),
    );
    return out.Item ? toException(out.Item) : undefined;
  },

  /**
   * Picks the most selective index for the filter: subject (GSI2), then status (GSI1), then the
   * tenant's exception partition; the remaining filters become a FilterExpression.
   */
  list(tenantId, filter, page) {
    const scope = { list: 'exceptions', tenant_id: tenantId, ...filter };
    const common = { scope, page, map: toException };
    if (filter.subject_type && filter.subject_id) {
      const { gsi2pk } = keys.exceptionSubjectIndex(tenantId, filter.subject_type, filter.subject_id, '');
      return queryPage(db, {
        ...common,
        index: 'gsi2',
        partition: gsi2pk,
        filters: { status: filter.status, severity: filter.severity },
      });
    }
    if (filter.status) {
      const { gsi1pk } = keys.exceptionStatusIndex(tenantId, filter.status, '');
      return queryPage(db, {
        ...common,
        index: 'gsi1',
        partition: gsi1pk,
        filters: {
          severity: filter.severity,
          subject_type: filter.subject_type,
          subject_id: filter.subject_id,
        },
      });
    }
    return queryPage(db, {
      ...common,
      partition: keys.exception(tenantId, '').pk,
      filters: {
        severity: filter.severity,
        subject_type: filter.subject_type,
        subject_id: filter.subject_id,
      },
    });
  },

  async transition(next, expectedStatus, audit) {
    const result = await transact(db, [
      {
        Put: {
          Item: exceptionItem(next),
          ConditionExpression: '#status = :expected',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':expected': expectedStatus },
        },
      },
      auditPut(audit),
    ]);
    return result.ok;
  },
});
