import * as z from 'zod/mini';
import type { AdapterDeclaration } from '../catalog';
import { RATE_LIMIT_FAILURES } from './fields';

export const webhook: AdapterDeclaration = {
  key: 'webhook',
  name: 'Signed webhook (Standard Webhooks)',
  status: 'available',
  category: 'notification',
  direction: 'outbound',
  purpose: "POSTs notifications to the tenant's HTTPS endpoint, signed per the Standard Webhooks scheme.",
  channel: 'webhook',
  capabilities: ['send_message', 'signed_payload'],
  // https and the address rules need the deployment's loopback setting: see target_url_fields.
  config: z.strictObject({
    url: z.string().check(
      z.maxLength(2048),
      z.refine((u) => URL.canParse(u), {
        message: 'must be an absolute URL',
        params: { code: 'invalid_url' },
      }),
    ),
  }),
  config_example: { url: 'https://hooks.acme.example/ops-platform' },
  target_url_fields: ['url'],
  probe: { config_field: 'url' },
  secret: z.strictObject({
    signing_secret: z
      .string()
      .check(z.regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ and at least 24 bytes of base64')),
  }),
  auth: {
    type: 'hmac_signing_secret',
    secret_fields: ['signing_secret'],
    notes: 'webhook-signature is v1, HMAC-SHA256 over id.timestamp.body with this secret.',
  },
  scopes: { supported: ['events.deliver'], default: ['events.deliver'] },
  required_mapping_keys: [],
  mapping_example: {},
  failure_modes: [
    'forbidden_target',
    'not_https',
    'dns_not_found',
    'redirect',
    'rejected_4xx',
    ...RATE_LIMIT_FAILURES,
  ],
  operations: [
    {
      name: 'deliver_event',
      request: 'POST <config.url>',
      scope: 'events.deliver',
      batch_size: 1,
      rate_limit: null,
      idempotency: {
        strategy: 'header',
        header: 'webhook-id',
        key: 'the delivery event idempotency_key',
        retention_hours: null,
      },
      retryable: [...RATE_LIMIT_FAILURES],
      permanent: ['forbidden_target', 'not_https', 'dns_not_found', 'redirect', 'rejected_4xx'],
    },
  ],
  payload_schema: {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { const: 'notification.delivered' },
      timestamp: { type: 'string', format: 'date-time' },
      data: { type: 'object' },
    },
  },
  public_notes: [
    'The url must be https and must not name a private, loopback, link-local, CGNAT or metadata address; the resolved address is checked again at delivery.',
    'A webhook notification goes to its recipient, which must be the connection url or a path below it.',
    'Redirects are never followed; receivers should deduplicate on webhook-id.',
  ],
};
