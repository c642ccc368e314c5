import { type AccessDoc, type AccessPatternSpec, PLACEHOLDER, prefixOf } from './entity';
import * as accountingExport from './entities/accounting-export';
import * as audit from './entities/audit';
import * as adapterConnection from './entities/adapter-connection';
import * as connectionHealth from './entities/connection-health';
import * as consumed from './entities/consumed';
import * as oauthConsent from './entities/oauth-consent';
import * as oauthRefresh from './entities/oauth-refresh';
import * as document from './entities/document';
import * as documentNumber from './entities/document-number';
import * as escalationPolicy from './entities/escalation-policy';
import * as webhookEndpoint from './entities/webhook-endpoint';
import * as webhookEndpointCount from './entities/webhook-endpoint-count';
import * as webhookMessage from './entities/webhook-message';
import * as exception from './entities/exception';
import * as exportBatch from './entities/export-batch';
import * as exportBooking from './entities/export-booking';
import * as healthProbe from './entities/health-probe';
import * as idempotency from './entities/idempotency';
import * as inboxItem from './entities/inbox-item';
import * as preferences from './entities/preferences';
import * as notificationHold from './entities/notification-hold';
import * as digestEntry from './entities/digest-entry';
import * as integrationConnection from './entities/integration-connection';
import * as integrationIssue from './entities/integration-issue';
import * as invitation from './entities/invitation';
import * as login from './entities/login';
import * as loginFailures from './entities/login-failures';
import * as member from './entities/member';
import * as notification from './entities/notification';
import * as outbox from './entities/outbox';
import * as reconciliationRun from './entities/reconciliation-run';
import * as reconciliationPage from './entities/reconciliation-page';
import * as reviewItem from './entities/review-item';
import * as session from './entities/session';
import * as task from './entities/task';
import * as tenant from './entities/tenant';
import * as timer from './entities/timer';
import * as user from './entities/user';
import * as workflowRule from './entities/workflow-rule';
import * as workflowRun from './entities/workflow-run';
import * as workflowReplay from './entities/workflow-replay';
import { type IndexName, keyAttributes } from './table';

/**
 * Every access pattern of the single table (shared/table/table.ts), derived from the entity
 * declarations (shared/table/entities/): each names its patterns, and the key conditions are
 * rendered from the same key templates the stores build keys with. Documentation data:
 * docs/data-model.md lists the same rows, and tests/unit/data-model-doc.test.ts keeps the two in
 * step. No Lambda imports this module.
 */
export interface AccessPattern {
  name: string;
  index: 'table' | IndexName;
  keyCondition: string;
  notes?: string;
}

/** Every entity of the table, with its documented access patterns (a test checks none is missing). */
export const DOCUMENTED: readonly AccessDoc[] = [
  user,
  login,
  loginFailures,
  session,
  tenant,
  member,
  invitation,
  exception,
  audit,
  outbox,
  notification,
  reviewItem,
  integrationConnection,
  adapterConnection,
  connectionHealth,
  integrationIssue,
  reconciliationRun,
  reconciliationPage,
  inboxItem,
  preferences,
  notificationHold,
  digestEntry,
  consumed,
  oauthConsent,
  oauthRefresh,
  idempotency,
  healthProbe,
  document,
  documentNumber,
  task,
  workflowRule,
  workflowRun,
  workflowReplay,
  accountingExport,
  exportBatch,
  exportBooking,
  timer,
  escalationPolicy,
  webhookEndpoint,
  webhookEndpointCount,
  webhookMessage,
].map((module) => module.access);

const render = (template: string, labels: Readonly<Record<string, string>>) =>
  template.replace(PLACEHOLDER, (_, name: string, lower?: string) => {
    const label = labels[name] ?? name;
    return `<${lower ? `lower(${label})` : label}>`;
  });

const keyCondition = (doc: AccessDoc, pattern: AccessPatternSpec, index: AccessPattern['index']) => {
  const template = doc.entity.indexes[index];
  if (!template) throw new Error(`${pattern.name}: ${doc.entity.entity} has no ${index} keys`);
  const { partitionKey, sortKey } = keyAttributes(index);
  const labels = doc.labels ?? {};
  const partition = `${partitionKey} = ${render(template.pk, labels)}`;
  const sort = pattern.sortKey;
  if (sort === undefined) return partition;
  if (sort === 'equals') return `${partition} AND ${sortKey} = ${render(template.sk, labels)}`;
  if (sort === 'begins_with') return `${partition} AND begins_with(${sortKey}, ${prefixOf(template.sk)})`;
  return `${partition} AND ${sortKey} < ${sort.lessThan}`;
};

export const ACCESS_PATTERNS: AccessPattern[] = DOCUMENTED.flatMap((doc) =>
  doc.patterns.map((pattern) => {
    const index = (pattern.index ?? 'table') as AccessPattern['index'];
    return {
      name: pattern.name,
      index,
      keyCondition: keyCondition(doc, pattern, index),
      ...(pattern.notes ? { notes: pattern.notes } : {}),
    };
  }),
);
