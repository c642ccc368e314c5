import * as z from 'zod/mini';
import type { EventDataSchema } from '#shared/kernel/event-types';
import { integrationIssueRecord } from '#shared/table/entities/integration-issue';
import { AccountingExportRead } from './accounting-responses';
import { named } from './common';
import { DateTime } from './datetime';
import { IssueCode } from './integrations';
import { DocumentRead, TaskRead, WorkflowRunRead } from './record-responses';
import { readSchema } from './records';
import { BusinessExceptionRead } from './responses';

/**
 * The zod schema of each event type's `data` (shared/kernel/event-types.ts names them): the read
 * shape of the record the change left. Only scripts/build-event-types.ts and the tests import
 * this; the webhooks function serves the JSON Schemas generated from it.
 */

/** What `integration.issue_opened` carries: the issue, its subject id and its adapter. */
export const IntegrationIssueData = named(
  z.object({
    id: z.string(),
    adapter_key: z.string(),
    ...readSchema(integrationIssueRecord, {
      issue_code: IssueCode,
      status: z.enum(['open', 'resolved', 'closed']),
    }).shape,
  }),
  'IntegrationIssueData',
);

export const WebhookTestData = named(
  z.object({ endpoint_id: z.string(), message: z.string(), sent_at: DateTime }),
  'WebhookTestData',
);

export const EVENT_DATA_SCHEMAS: Record<EventDataSchema, z.ZodMiniType> = {
  BusinessExceptionRead,
  DocumentRead,
  TaskRead,
  AccountingExportRead,
  WorkflowRunRead,
  IntegrationIssueData,
  WebhookTestData,
};
