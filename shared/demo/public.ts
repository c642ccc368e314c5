import type * as z from 'zod';
import { call, DEMO_TENANT, demoCommand, DOC, PUBLIC_BOUNDARIES, SOURCE_SYSTEMS } from './common';
import { CHANNEL_PROFILES } from '#shared/domain/notifications/channels';
import { briefing as computeBriefing } from '#shared/domain/previews/briefing';
import { approvalGateway as computeGateway } from '#shared/domain/previews/approval-gateway';
import { actionExecution as computeExecution } from '#shared/domain/previews/execution';
import { intakePipeline as computeIntake } from '#shared/domain/previews/intake';
import { notificationDeliveryContract } from './delivery';
import { businessRecordsDemo } from './records';
import { briefingRows, executionRows, gatewayRows, intakeRows, labelsOf, mentionsOf } from './preview-rows';
import {
  DEMO_EXECUTION_REQUEST,
  DEMO_GATEWAY_REQUEST,
  DEMO_IDS,
  DEMO_INTAKE_REQUEST,
  DEMO_PREVIEW_AT,
  DEMO_RECORDS,
  demoBriefing,
  demoSteps,
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
const boundaries = () => PUBLIC_BOUNDARIES.map((b) => ({ ...b }));
/** The demo's API paths keep `{tenant_id}`: there is no tenant to fill in. */
const previewApi = (path: string) => path;

export interface DemoSection {
  id: string;
  title: string;
  path: string;
  description: string;
}

/** The demo's context assistant: the real briefing of the demo tenant's records (./previews.ts). */
function contextAssistant(): z.output<typeof BusinessContextAssistantDemoRead> {
  const request = demoBriefing(DEMO_IDS.invoice);
  const result = computeBriefing(request, DEMO_RECORDS, DEMO_PREVIEW_AT, previewApi);
  return {
    status: 'previewed',
    command: demoCommand('demo.public'),
    api: { briefing: call('previews.briefing'), exception: call('exceptions.get') },
    docs: [{ ...DOC.demo }],
    subject: labelsOf(DEMO_RECORDS)(request.subject_type, request.subject_id),
    ...briefingRows(result, labelsOf(DEMO_RECORDS), mentionsOf(DEMO_RECORDS)),
    dataBoundaries: boundaries(),
  };
}

/** The demo's intake pipeline: the real preview of the demo's provider events against its records. */
function intakePipeline(): z.output<typeof BusinessIntakePipelineDemoRead> {
  const result = computeIntake(
    DEMO_INTAKE_REQUEST,
    DEMO_RECORDS,
    DEMO_TENANT.id,
    DEMO_PREVIEW_AT,
    previewApi,
  );
  return {
    status: 'previewed',
    command: demoCommand('demo.public'),
    api: { intakePipeline: call('previews.intakePipeline') },
    docs: [{ ...DOC.demo }],
    ...intakeRows(result, labelsOf(DEMO_RECORDS), mentionsOf(DEMO_RECORDS)),
    dataBoundaries: boundaries(),
  };
}

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
    command: demoCommand('demo.public'),
    api: { actionExecution: call('previews.actionExecution') },
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
    command: demoCommand('demo.public'),
    api: { approvalGateway: call('previews.approvalGateway') },
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
    command: demoCommand('demo.public'),
    api: Object.fromEntries([
      ['self', call('demo.public')],
      ...sections.map((s) => [s.id, `GET ${s.path}`]),
      ['openapi', call('public.openapi')],
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
