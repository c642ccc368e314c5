import type * as z from 'zod';
import { METRICS } from '#shared/kernel/names';
import { call, demoCommand, DOC, SOURCE_SYSTEMS } from '../common';
import { DELIVERY_API } from '../delivery';
import type { BusinessScenarioReplayDemoRead } from '../schemas';
import { boundaries } from './steps';

/** The month-end supplier payment mismatch, from the bank line to the resolved exception. */
export function businessScenarioReplayDemo(): z.output<typeof BusinessScenarioReplayDemoRead> {
  const notifications: z.output<typeof BusinessScenarioReplayDemoRead>['notifications'] = [
    { channel: 'in_app', audience: 'accountants', outcome: 'delivered' },
    { channel: 'email', audience: 'accountants', outcome: 'delivered' },
    { channel: 'webhook', audience: 'the tenant ERP', outcome: 'delivered on attempt 2 after a 503' },
    {
      channel: 'email',
      audience: 'supplier accounts contact',
      outcome: 'waiting for the external-wording approval',
    },
  ];
  const queued = notifications.filter((n) => n.outcome.startsWith('delivered')).length;
  return {
    status: 'previewed',
    command: demoCommand('demo.businessScenarioReplay'),
    api: {
      self: call('demo.businessScenarioReplay'),
      exceptions: call('exceptions.create'),
      notifications: DELIVERY_API.send,
      accountingExports: call('accountingExports.create'),
    },
    docs: [{ ...DOC.walkthroughs }, { ...DOC.delivery }],
    title: 'Month-end supplier payment mismatch',
    summary: [
      { label: 'Steps', value: '9', detail: 'from bank line to resolved exception' },
      { label: 'Exceptions', value: '2', detail: 'one warning, one info' },
      {
        label: 'Notifications delivered',
        value: `${queued} of ${notifications.length}`,
        detail: 'one waits for approval',
      },
      { label: 'Previews', value: '4', detail: 'they persist nothing' },
    ],
    scenario: {
      id: 'scn_month_end_payment_mismatch',
      title: 'A supplier paid 540.00 USD less than invoiced',
      window: '2026-03-31, month-end close',
      question:
        'How does the tenant get from a bank line to a resolved, audited outcome before the books close?',
    },
    timeline: [
      [
        '07:02',
        'Intake',
        SOURCE_SYSTEMS.bank,
        call('previews.intakePipeline'),
        'payment PAY-88120 of 4,860.00 USD normalized; it refers to invoice INV-20417',
      ],
      [
        '07:03',
        'Detection',
        'accountant',
        call('previews.detection'),
        'payment_reconciliation: 540.00 USD below INV-20417 (5,400.00 USD)',
      ],
      [
        '07:05',
        'Exception',
        'operator',
        call('exceptions.create'),
        'payment.amount_mismatch, severity warning',
      ],
      [
        '07:06',
        'Notification',
        'routing rule payment-mismatch-digest',
        DELIVERY_API.send,
        'in-app and email digests to accountants, webhook to the ERP',
      ],
      [
        '07:20',
        'Escalation',
        'manager',
        call('previews.escalation'),
        'exception_triage: accounts-payable queue, due before close',
      ],
      [
        '08:10',
        'Action plan',
        'manager',
        call('previews.actionPlan'),
        'confirm the early-payment discount, book it, notify the supplier',
      ],
      [
        '08:25',
        'Approval',
        'owner',
        call('previews.approvalGateway'),
        'dual control: manager requested, owner approved',
      ],
      [
        '09:00',
        'Accounting export',
        'accountant',
        call('accountingExports.create'),
        'journal batch je-2026-03-31-01 exported once (idempotent on export_batch_id)',
      ],
      [
        '09:05',
        'Resolution',
        'operator',
        call('exceptions.changeStatus'),
        'resolved: 10% early-payment discount; the supplier notice waits for approval',
      ],
    ].map(([time, stage, actor, api, outcome], i) => ({
      step: i + 1,
      at: `2026-03-31T${time}:00Z`,
      stage: stage!,
      actor: actor!,
      api: api!,
      outcome: outcome!,
    })),
    exceptions: [
      {
        exceptionType: 'payment.amount_mismatch',
        severity: 'warning',
        subject: 'supplier_invoice INV-20417',
        title: 'Payment 540.00 USD below invoice',
        status: 'resolved',
      },
      {
        exceptionType: 'supplier.terms_defaulted',
        severity: 'info',
        subject: 'supplier S-118',
        title: 'Payment terms defaulted to net-30',
        status: 'acknowledged',
      },
    ],
    notifications,
    auditTrail: [
      { eventType: 'exception.created', entity: 'exception payment.amount_mismatch', actorRole: 'operator' },
      { eventType: 'notification.queued', entity: 'notification ntf_demo_1004', actorRole: 'operator' },
      { eventType: 'accounting_export.created', entity: 'export je-2026-03-31-01', actorRole: 'accountant' },
      {
        eventType: 'exception.status_changed',
        entity: 'exception payment.amount_mismatch',
        actorRole: 'operator',
      },
    ],
    observed: [
      { metric: METRICS.outboxWritten, value: queued + 1, unit: 'Count' },
      { metric: METRICS.notificationQueued, value: queued, unit: 'Count' },
      { metric: METRICS.notificationRetried, value: 1, unit: 'Count' },
      { metric: METRICS.notificationDelivered, value: queued, unit: 'Count' },
      { metric: METRICS.relayLag, value: 180, unit: 'Milliseconds (p99)' },
    ],
    dataBoundaries: boundaries(),
  };
}
