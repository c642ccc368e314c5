import type * as z from 'zod';
import { EVENT_KINDS } from '#shared/kernel/names';
import { call, DEMO_TENANT, demoCommand, DOC, PUBLIC_BOUNDARIES, SOURCE_SYSTEMS } from './common';
import { CHANNEL_PROFILES, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { DELIVERY_API } from './delivery';
import { DIGEST_LISTED } from '#shared/domain/notifications/digest';
import type { NotificationStatus } from '#shared/domain/notifications/ports';
import { UNMUTABLE_CATEGORY } from '#shared/domain/preferences/rules';

const digested: NotificationStatus = 'digested';
const scheduled: NotificationStatus = 'scheduled';
import type { BusinessNotificationChannelMatrixDemoRead, NOTIFICATION_CHANNELS } from './schemas';

type Channel = (typeof NOTIFICATION_CHANNELS)[number];
type Matrix = z.output<typeof BusinessNotificationChannelMatrixDemoRead>;

/** The demo tenant's channel set-up: SMS is enabled but its provider is still being onboarded. */
const TENANT_CHANNELS: Record<
  Channel,
  {
    enabled: boolean;
    gateState: Matrix['channels'][number]['gateState'];
    connection: string;
    audience: string;
  }
> = {
  in_app: { enabled: true, gateState: 'not required', connection: 'built in', audience: 'every member' },
  telegram: {
    enabled: true,
    gateState: 'open',
    connection: 'ops-room bot connection (active, configured)',
    audience: 'site managers group chat',
  },
  email: {
    enabled: true,
    gateState: 'open',
    connection: 'transactional email connection (active, configured)',
    audience: 'accountants and supplier contacts',
  },
  sms: {
    enabled: true,
    gateState: 'closed',
    connection: `${SOURCE_SYSTEMS.sms} connection (onboarding, not configured)`,
    audience: 'on-call manager',
  },
  webhook: {
    enabled: true,
    gateState: 'open',
    connection: 'ERP event endpoint (active, configured)',
    audience: 'the tenant ERP',
  },
};

const rules: Matrix['routingRules'] = [
  {
    rule: 'critical-exception',
    trigger: 'exception.created',
    condition: 'severity is critical',
    channels: ['in_app', 'telegram', 'sms'],
    audience: 'managers of the affected site',
    approval: 'none: internal alert',
  },
  {
    rule: 'payment-mismatch-digest',
    trigger: 'detection preview (payment_reconciliation)',
    condition: 'unmatched bank line above 500.00 USD',
    channels: ['in_app', 'email'],
    audience: 'accountants',
    approval: 'none: internal digest',
  },
  {
    rule: 'supplier-notice',
    trigger: 'exception.status_changed',
    condition: 'resolved, subject type supplier',
    channels: ['email'],
    audience: 'supplier accounts contact (external)',
    approval: 'external-wording gate (manager)',
  },
  {
    rule: 'erp-sync',
    trigger: 'exception.created, exception.status_changed',
    condition: 'any exception',
    channels: ['webhook'],
    audience: 'the tenant ERP',
    approval: 'none: machine to machine',
  },
  {
    rule: 'stock-level-digest',
    trigger: 'workflow rule on inventory sync',
    condition: `digest key stock-levels, 60-minute window: one message listing at most ${DIGEST_LISTED}; each held one ${digested}`,
    channels: ['sms'],
    audience: 'on-call manager (recipient_user_id: their SMS contact)',
    approval: `member preferences: mutes (never ${UNMUTABLE_CATEGORY}), quiet hours hold normal priority (${scheduled})`,
  },
  {
    rule: 'stock-below-reorder-point',
    trigger: 'workflow rule on inventory sync',
    condition: 'site is River Depot',
    channels: ['in_app'],
    audience: 'operators of River Depot',
    approval: 'none',
  },
];

const draftKey = (n: number) => `notification:${DEMO_TENANT.id}:ntf_demo_${n}`;

export function channelMatrixDemo(): Matrix {
  const channels = Object.keys(CHANNEL_PROFILES) as Channel[];
  let next = 1001;
  const draft = (
    rule: string,
    channel: Channel,
    audience: string,
    template: string,
    policyCheck: string,
    outcome: string,
  ): Matrix['deliveryDrafts'][number] => {
    const n = next++;
    return {
      draftId: `ntf_demo_${n}`,
      rule,
      channel,
      audience,
      template,
      policyCheck,
      outcome,
      idempotencyKey: draftKey(n),
    };
  };
  const drafts: Matrix['deliveryDrafts'] = [
    draft(
      'critical-exception',
      'in_app',
      'managers of North Yard',
      'exception-critical',
      'passed',
      'delivered',
    ),
    draft(
      'critical-exception',
      'telegram',
      'site managers group chat',
      'exception-critical',
      'passed',
      'delivered',
    ),
    draft(
      'critical-exception',
      'sms',
      'on-call manager',
      'exception-critical-short',
      'passed',
      'gated: sms connection not configured; review item opened',
    ),
    draft(
      'payment-mismatch-digest',
      'email',
      'accountants',
      'payment-mismatch-digest',
      'passed',
      'delivered',
    ),
    draft(
      'supplier-notice',
      'email',
      'supplier accounts contact',
      'supplier-invoice-resolved',
      'passed',
      'waiting for the external-wording approval',
    ),
    draft(
      'erp-sync',
      'webhook',
      'the tenant ERP',
      'exception-event-v1',
      'passed',
      `retrying: attempt 2 of ${DELIVERY_MAX_ATTEMPTS} after a 503`,
    ),
    draft(
      'stock-below-reorder-point',
      'in_app',
      'operators of River Depot',
      'stock-low-detailed',
      `rejected: body longer than ${CHANNEL_PROFILES.in_app.maxBodyChars} characters`,
      'blocked (422 policy_rejected)',
    ),
  ];

  return {
    status: 'previewed',
    command: demoCommand('demo.businessNotificationChannels'),
    api: {
      self: call('demo.businessNotificationChannels'),
      contract: call('demo.notificationDelivery'),
      send: DELIVERY_API.send,
      reviewItems: DELIVERY_API.reviewItems,
    },
    docs: [{ ...DOC.delivery }, { ...DOC.demo }],
    title: `Notification channels of ${DEMO_TENANT.name}`,
    tenant: { ...DEMO_TENANT, sites: [...DEMO_TENANT.sites] },
    summary: [
      {
        label: 'Channels enabled',
        value: `${channels.filter((c) => TENANT_CHANNELS[c].enabled).length} of ${channels.length}`,
        detail: 'in_app needs no gate',
      },
      {
        label: 'Gates closed',
        value: String(channels.filter((c) => TENANT_CHANNELS[c].gateState === 'closed').length),
        detail: 'sms waits for provider onboarding',
      },
      { label: 'Routing rules', value: String(rules.length), detail: 'business events to channels' },
      {
        label: 'Drafts in this preview',
        value: String(drafts.length),
        detail: `each queued through ${EVENT_KINDS.notificationDeliveryRequested}`,
      },
    ],
    channels: channels.map((channel) => {
      const p = CHANNEL_PROFILES[channel];
      const t = TENANT_CHANNELS[channel];
      return {
        channel,
        label: p.label,
        enabled: t.enabled,
        gateState: t.gateState,
        connection: t.connection,
        queue: p.queue,
        audience: t.audience,
        usedFor: rules.filter((r) => r.channels.includes(channel)).map((r) => r.rule),
      };
    }),
    routingRules: rules.map((r) => ({ ...r, channels: [...r.channels] })),
    approvalGates: [
      {
        gate: 'external-wording',
        appliesTo: 'email to a party outside the tenant',
        approverRole: 'manager',
        reason: 'supplier- and customer-facing text is reviewed before it leaves',
        state: 'enforced',
      },
      {
        gate: 'bulk-sms',
        appliesTo: 'sms to more than 20 recipients at once',
        approverRole: 'owner',
        reason: 'every message has a provider cost',
        state: 'enforced',
      },
      {
        gate: 'sms-connection',
        appliesTo: 'every sms',
        approverRole: 'none: provider gate',
        reason: 'opens when the SMS connection is active and configured (see provider onboarding)',
        state: 'closed',
      },
    ],
    deliveryDrafts: drafts,
    dataBoundaries: PUBLIC_BOUNDARIES.map((b) => ({ ...b })),
  };
}
