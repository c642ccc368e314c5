import type * as z from 'zod';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { CHANNEL_PROFILES } from '#shared/domain/notifications/channels';
import { call, demoCommand, DOC, SOURCE_SYSTEMS } from '../common';
import { DELIVERY_API } from '../delivery';
import type { ProviderOnboardingDemoRead } from '../schemas';
import { boundaries, steps } from './steps';

/** Onboarding the SMS provider: checklist, diagnostics, and the gate opening on activation. */
export function providerOnboardingDemo(): z.output<typeof ProviderOnboardingDemoRead> {
  const sms = CHANNEL_PROFILES.sms;
  const checklist: z.output<typeof ProviderOnboardingDemoRead>['checklist'] = [
    {
      item: 'Adapter contract reviewed',
      owner: 'manager',
      state: 'done',
      evidence: `${sms.adapter}, ${sms.recipientFormat}`,
    },
    {
      item: 'Sender id registered with the provider',
      owner: 'owner',
      state: 'done',
      evidence: 'registration kept with the private configuration',
    },
    {
      item: 'Private configuration present',
      owner: 'platform operator',
      state: 'done',
      evidence: 'configured: yes',
    },
    {
      item: 'Diagnostics passed',
      owner: 'manager',
      state: 'done',
      evidence: 'three probes passed, one warning',
    },
    {
      item: 'Bulk-sms approval gate',
      owner: 'owner',
      state: 'done',
      evidence: 'sends to more than 20 recipients need the owner',
    },
    {
      item: 'Opt-out replies routed',
      owner: 'manager',
      state: 'pending',
      evidence: 'STOP replies to reach the in-app inbox',
    },
  ];
  return {
    status: 'previewed',
    command: demoCommand('demo.providerOnboarding'),
    api: {
      self: call('demo.providerOnboarding'),
      adapter: call('adapters.get'),
      createConnection: call('integrationConnections.create'),
      activateConnection: call('integrationConnections.update'),
      diagnostics: call('integrationConnections.diagnose'),
      decide: DELIVERY_API.decide,
    },
    docs: [{ ...DOC.walkthroughs }, { ...DOC.delivery }],
    title: `Onboarding ${SOURCE_SYSTEMS.sms} for SMS alerts`,
    summary: [
      {
        label: 'Checklist',
        value: `${checklist.filter((c) => c.state === 'done').length} of ${checklist.length} done`,
        detail: 'opt-out routing still pending',
      },
      { label: 'Gate', value: 'closed to open', detail: 'after configuration, diagnostics and activation' },
      { label: 'Body limit', value: `${sms.maxBodyChars} characters`, detail: 'six concatenated segments' },
    ],
    provider: {
      key: 'textharbor-sms',
      name: SOURCE_SYSTEMS.sms,
      channel: 'sms',
      category: 'notification provider',
    },
    walkthrough: steps([
      ['Choose the adapter', 'manager', call('adapters.get'), `${sms.label}: ${sms.recipientFormat}`],
      [
        'Create the connection',
        'manager',
        call('integrationConnections.create'),
        'state onboarding; the sms gate stays closed',
      ],
      [
        'Provide the private configuration',
        'platform operator',
        'none: server side, out of band',
        'configured: yes; the value never appears in a response, a log line or an audit event',
      ],
      [
        'Run diagnostics',
        'manager',
        call('integrationConnections.diagnose'),
        'reachability, authentication and sender id pass',
      ],
      [
        'Activate the connection',
        'manager',
        call('integrationConnections.update'),
        'state active; the sms gate opens',
      ],
      [
        'Retry the gated alert',
        'operator',
        DELIVERY_API.decide,
        'the gated critical-exception sms (ntf_demo_1003) is queued again under its idempotency key and delivered',
      ],
      [
        'Watch the evidence',
        'SRE',
        'none: CloudWatch dashboard',
        `${METRICS.notificationDelivered} rises, ${METRICS.notificationGated} falls to zero; ${LOG_EVENTS.notificationGated} lines stop`,
      ],
    ]),
    checklist,
    diagnostics: [
      {
        probe: 'DNS and TLS to the gateway',
        result: 'passed',
        latencyMs: 84,
        note: 'certificate valid for 212 days',
      },
      {
        probe: 'Authentication',
        result: 'passed',
        latencyMs: 131,
        note: 'accepted; nothing of it is logged',
      },
      { probe: 'Sender id', result: 'passed', latencyMs: 96, note: 'alphanumeric sender registered' },
      {
        probe: 'Delivery receipt callback',
        result: 'warning',
        latencyMs: 0,
        note: 'not set up; delivery is confirmed by the send response only',
      },
    ],
    gateTransitions: [
      { from: 'closed: no connection', to: 'closed: onboarding', trigger: 'connection created' },
      {
        from: 'closed: onboarding',
        to: 'open',
        trigger: 'configuration present, diagnostics passed, connection activated',
      },
      { from: 'open', to: 'closed: suspended', trigger: 'connection suspended or its configuration removed' },
    ],
    dataBoundaries: boundaries({
      boundary: 'Provider configuration',
      publicSurface: 'Only "configured: yes/no" and the connection state.',
      privateServerSide: 'The configuration itself, readable by the external delivery worker only.',
    }),
  };
}
