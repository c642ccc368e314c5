import type * as z from 'zod';
import { DEMO_TENANT, DOC, fetchCommand, PUBLIC_BOUNDARIES, SOURCE_SYSTEMS } from './common';
import { CHANNEL_PROFILES } from '#shared/domain/notifications/channels';
import {
  actionExecution as computeExecution,
  approvalGateway as computeGateway,
} from '#shared/domain/previews/execution';
import { notificationDeliveryContract } from './delivery';
import { businessRecordsDemo } from './records';
import {
  DEMO_EXECUTION_REQUEST,
  DEMO_GATEWAY_REQUEST,
  DEMO_IDS,
  DEMO_PREVIEW_AT,
  DEMO_RECORDS,
  demoSteps,
  executionRows,
  gatewayRows,
  labelsOf,
} from './previews';
import type {
  BusinessActionExecutionDemoRead,
  BusinessApprovalGatewayDemoRead,
  BusinessContextAssistantDemoRead,
  BusinessIntakePipelineDemoRead,
  PublicDemoRead,
} from './schemas';

/**
 * `/demo/public`: the front page of the demo. It introduces the tenant, links every other demo
 * record, shows the business previews of the month-end scenario as the records of docs/api.md
 * section 8, and embeds the notification delivery contract as `notificationDelivery`.
 */

const SUBJECT = 'supplier_invoice INV-20417';
const preview = (kind: string) => `POST /tenants/{tenant_id}/previews/${kind}`;
const boundaries = () => PUBLIC_BOUNDARIES.map((b) => ({ ...b }));

export interface DemoSection {
  id: string;
  title: string;
  path: string;
  description: string;
}

function contextAssistant(): z.output<typeof BusinessContextAssistantDemoRead> {
  return {
    status: 'previewed',
    command: fetchCommand('/demo/public'),
    api: { briefing: preview('briefing'), exception: 'GET /tenants/{tenant_id}/exceptions/{exception_id}' },
    docs: [{ ...DOC.demo }],
    summary: [
      { label: 'Context cards', value: '4', detail: 'from three source systems' },
      { label: 'Suggested actions', value: '3', detail: 'each names its API call' },
    ],
    role: 'accountant',
    subject: SUBJECT,
    sourceSystems: [SOURCE_SYSTEMS.accounting, SOURCE_SYSTEMS.bank, 'ops-platform exceptions'],
    contextCards: [
      {
        title: 'Invoice',
        source: SOURCE_SYSTEMS.accounting,
        fact: 'INV-20417: 5,400.00 USD, due 2026-04-15',
        freshness: '2 min',
      },
      {
        title: 'Payment',
        source: SOURCE_SYSTEMS.bank,
        fact: 'PAY-88120: 4,860.00 USD on 2026-03-31',
        freshness: '1 min',
      },
      {
        title: 'Supplier terms',
        source: SOURCE_SYSTEMS.accounting,
        fact: '10% discount when paid within 15 days',
        freshness: '1 day',
      },
      {
        title: 'Open exception',
        source: 'ops-platform exceptions',
        fact: 'payment.amount_mismatch, warning',
        freshness: 'now',
      },
    ],
    insightRules: [
      {
        rule: 'discount-explains-gap',
        looksAt: 'gap / invoice total',
        fires: 'gap is exactly 10% and paid early',
      },
      {
        rule: 'duplicate-payment',
        looksAt: 'payments per invoice',
        fires: 'more than one payment covers the invoice',
      },
      { rule: 'stale-terms', looksAt: 'supplier terms age', fires: 'terms older than 12 months' },
    ],
    suggestedActions: [
      {
        action: 'Acknowledge the exception',
        why: 'the discount explains the gap',
        api: 'POST /tenants/{tenant_id}/exceptions/{exception_id}/status',
      },
      {
        action: 'Book the discount',
        why: 'keeps the ledger balanced',
        api: 'POST /tenants/{tenant_id}/accounting-exports',
      },
      { action: 'Plan the resolution', why: 'needs an approval before booking', api: preview('action-plan') },
    ],
    dataBoundaries: boundaries(),
  };
}

function intakePipeline(): z.output<typeof BusinessIntakePipelineDemoRead> {
  const intakePreviews: z.output<typeof BusinessIntakePipelineDemoRead>['intakePreviews'] = [
    {
      source: SOURCE_SYSTEMS.bank,
      event: 'payment received',
      normalizedAs: 'payment PAY-88120',
      accepted: true,
    },
    {
      source: SOURCE_SYSTEMS.accounting,
      event: 'invoice updated',
      normalizedAs: 'document INV-20417',
      accepted: true,
    },
    {
      source: SOURCE_SYSTEMS.inventory,
      event: 'stock count',
      normalizedAs: 'stock level, River Depot',
      accepted: true,
    },
    {
      source: SOURCE_SYSTEMS.bank,
      event: 'statement line without reference',
      normalizedAs: 'not normalized',
      accepted: false,
    },
  ];
  return {
    status: 'previewed',
    command: fetchCommand('/demo/public'),
    api: { intakePipeline: preview('intake-pipeline') },
    docs: [{ ...DOC.demo }],
    summary: [
      {
        label: 'Events',
        value: `${intakePreviews.filter((e) => e.accepted).length} of ${intakePreviews.length} accepted`,
        detail: 'one line has no reference',
      },
      { label: 'Detections', value: '1', detail: 'payment_reconciliation' },
    ],
    sourceSystems: [SOURCE_SYSTEMS.bank, SOURCE_SYSTEMS.accounting, SOURCE_SYSTEMS.inventory],
    intakePreviews,
    workbench: { openExceptions: 3, queues: ['accounts-payable', 'inventory'], focus: 'month-end close' },
    detections: {
      ruleSet: 'payment_reconciliation',
      findings: [
        { rule: 'amount_mismatch', subject: SUBJECT, severity: 'warning' },
        { rule: 'missing_reference', subject: 'bank line 2026-03-31 #14', severity: 'info' },
      ],
    },
    actionPlan: {
      planKind: 'exception_resolution',
      steps: ['confirm discount terms', 'book discount', 'notify supplier'],
    },
    notifications: {
      drafts: 2,
      channels: ['in_app', 'email'],
      note: 'drafts only: a preview queues nothing',
    },
    dataBoundaries: boundaries(),
  };
}

const previewApi = (path: string) => path;

/** The demo's action execution: the real preview of the demo tenant's records (./previews.ts). */
function actionExecution(): z.output<typeof BusinessActionExecutionDemoRead> {
  const result = computeExecution(
    { ...DEMO_EXECUTION_REQUEST, action_steps: demoSteps(DEMO_IDS.exception, DEMO_IDS.invoice) },
    DEMO_RECORDS,
    DEMO_PREVIEW_AT,
    previewApi,
  );
  const rows = executionRows(result, labelsOf(DEMO_RECORDS));
  return {
    status: 'previewed',
    command: fetchCommand('/demo/public'),
    api: { actionExecution: preview('action-execution') },
    docs: [{ ...DOC.demo }],
    summary: [
      { label: 'Mode', value: 'dry run', detail: 'nothing is changed' },
      {
        label: 'Steps',
        value: String(rows.executionPlan.length),
        detail: `${result.approval_gates.length} needs approval`,
      },
    ],
    role: DEMO_EXECUTION_REQUEST.role,
    subject: SUBJECT,
    ...rows,
    dataBoundaries: boundaries(),
  };
}

/** The demo's approval gateway: the real preview of the same steps, a manager asking. */
function approvalGateway(): z.output<typeof BusinessApprovalGatewayDemoRead> {
  const result = computeGateway(
    { ...DEMO_GATEWAY_REQUEST, execution_plan: demoSteps(DEMO_IDS.exception, DEMO_IDS.invoice) },
    DEMO_RECORDS,
    DEMO_PREVIEW_AT,
    previewApi,
  );
  const rows = gatewayRows(result, labelsOf(DEMO_RECORDS));
  return {
    status: 'previewed',
    command: fetchCommand('/demo/public'),
    api: { approvalGateway: preview('approval-gateway') },
    docs: [{ ...DOC.demo }],
    summary: [
      { label: 'Requests', value: String(rows.approvalRequests.length), detail: 'one per gated step' },
      { label: 'Dual control', value: 'on', detail: 'the requester role never approves its own request' },
    ],
    role: DEMO_GATEWAY_REQUEST.role,
    subject: SUBJECT,
    ...rows,
    dataBoundaries: boundaries(),
  };
}

export function publicDemo(sections: DemoSection[]): z.output<typeof PublicDemoRead> {
  const notificationDelivery = notificationDeliveryContract();
  return {
    status: 'previewed',
    command: fetchCommand('/demo/public'),
    api: Object.fromEntries([
      ['self', 'GET /demo/public'],
      ...sections.map((s) => [s.id, `GET ${s.path}`]),
      ['openapi', 'GET /openapi.json'],
    ]),
    docs: [{ ...DOC.demo }, { ...DOC.delivery }, { ...DOC.openapi }],
    title: `${DEMO_TENANT.name}: a month-end close on ops-platform`,
    tagline:
      'Static, synthetic data about one fictional tenant. Every record here is what the real API would answer; nothing is stored, sent or called.',
    tenant: { ...DEMO_TENANT, sites: [...DEMO_TENANT.sites] },
    summary: [
      { label: 'Sites', value: String(DEMO_TENANT.sites.length), detail: DEMO_TENANT.sites.join(', ') },
      { label: 'Source systems', value: String(Object.keys(SOURCE_SYSTEMS).length), detail: 'all fictional' },
      {
        label: 'Notification channels',
        value: String(Object.keys(CHANNEL_PROFILES).length),
        detail: Object.keys(CHANNEL_PROFILES).join(', '),
      },
      { label: 'Walkthroughs', value: String(sections.length), detail: 'each a path you can follow' },
    ],
    sections: sections.map((s) => ({ ...s })),
    contextAssistant: contextAssistant(),
    intakePipeline: intakePipeline(),
    actionExecution: actionExecution(),
    approvalGateway: approvalGateway(),
    businessRecords: businessRecordsDemo(),
    notificationDelivery,
    dataBoundaries: boundaries(),
  };
}
