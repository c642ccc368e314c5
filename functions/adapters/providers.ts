import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { classifyStatus } from '#shared/domain/notifications/channels';
import type {
  Channel,
  Notification,
  ProviderConfig,
  ProviderPort,
  SendResult,
} from '#shared/domain/notifications/ports';
import { sendWebhook } from './webhook';

/**
 * Channel adapters and the private provider configuration they need. SDK clients are created once
 * per process; retries are ours (the queue's backoff), so each client makes exactly one attempt.
 * Endpoints come from the SDK environment (AWS_ENDPOINT_URL_SESV2, AWS_ENDPOINT_URL_SNS) and
 * OPS_TELEGRAM_API_URL, which the local runtime points at its loopback sandbox.
 */

const ses = new SESv2Client({ maxAttempts: 1 });
const sns = new SNSClient({ maxAttempts: 1 });
const ssm = new SSMClient({});

const TELEGRAM_API = process.env.OPS_TELEGRAM_API_URL ?? 'https://api.telegram.org';
const TIMEOUT_MS = Number(process.env.OPS_PROVIDER_TIMEOUT_MS ?? 5000);

export interface ProviderSettings {
  /** Cloud: SSM path under which `<tenant_id>/<channel>` SecureString parameters hold JSON configs. */
  configPrefix: string | undefined;
  /** Local runtime only: the configs themselves, keyed `<tenant_id>/<channel>` or `*\/<channel>`. */
  localConfigJson: string | undefined;
  allowLoopbackWebhooks: boolean;
}

export const providerSettingsFromEnv = (): ProviderSettings => ({
  configPrefix: process.env.OPS_PROVIDER_CONFIG_PREFIX,
  localConfigJson: process.env.OPS_PROVIDER_CONFIG_JSON,
  allowLoopbackWebhooks: process.env.OPS_WEBHOOK_ALLOW_LOOPBACK === '1',
});

const CACHE_MS = 60_000;

/** Provider configs by reference: read from SSM (decrypted) in the cloud, cached for a minute. */
function configSource(settings: ProviderSettings) {
  const local = settings.localConfigJson
    ? (JSON.parse(settings.localConfigJson) as Record<string, ProviderConfig>)
    : undefined;
  const cache = new Map<string, { at: number; value: ProviderConfig | undefined }>();
  return async (tenantId: string, channel: Channel): Promise<ProviderConfig | undefined> => {
    if (local) return local[`${tenantId}/${channel}`] ?? local[`*/${channel}`];
    if (!settings.configPrefix) return undefined;
    const name = `${settings.configPrefix.replace(/\/$/, '')}/${tenantId}/${channel}`;
    const hit = cache.get(name);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
    let value: ProviderConfig | undefined;
    try {
      const out = await ssm.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
      value = out.Parameter?.Value ? (JSON.parse(out.Parameter.Value) as ProviderConfig) : undefined;
    } catch (err) {
      if (!(err instanceof ParameterNotFound)) throw err;
    }
    cache.set(name, { at: Date.now(), value });
    return value;
  };
}

/** SDK errors to failure classes: throttling, 5xx and network trouble are transient. */
function classifySdkError(err: unknown): SendResult {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = e.$metadata?.httpStatusCode;
  if (status) {
    const r = classifyStatus(status);
    if (!r.ok) return { ...r, reason: `${r.reason}_${(e.name ?? 'error').replace(/[^A-Za-z]/g, '')}` };
  }
  if (e.$retryable || /Throttl|TooManyRequests|Timeout|ServiceUnavailable/i.test(e.name ?? ''))
    return { ok: false, kind: 'transient', reason: 'provider_unavailable' };
  if (/InvalidParameter|BadRequest|MessageRejected|NotFound|Validation/i.test(e.name ?? ''))
    return { ok: false, kind: 'permanent', reason: 'provider_rejected' };
  return { ok: false, kind: 'transient', reason: 'network_error' };
}

async function telegram(n: Notification, config: ProviderConfig): Promise<SendResult> {
  try {
    const res = await fetch(`${TELEGRAM_API}/bot${config.bot_token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: n.recipient, text: n.body }),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    return classifyStatus(res.status);
  } catch (err) {
    return {
      ok: false,
      kind: 'transient',
      reason: (err as Error).name === 'TimeoutError' ? 'timeout' : 'network_error',
    };
  }
}

async function email(n: Notification, config: ProviderConfig): Promise<SendResult> {
  try {
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: config.from_address,
        Destination: { ToAddresses: [n.recipient] },
        Content: {
          Simple: {
            Subject: { Data: n.subject ?? '', Charset: 'UTF-8' },
            Body: { Text: { Data: n.body, Charset: 'UTF-8' } },
          },
        },
        ...(config.configuration_set ? { ConfigurationSetName: config.configuration_set } : {}),
      }),
      { abortSignal: AbortSignal.timeout(TIMEOUT_MS) },
    );
    return { ok: true };
  } catch (err) {
    return classifySdkError(err);
  }
}

async function sms(n: Notification, config: ProviderConfig): Promise<SendResult> {
  try {
    await sns.send(
      new PublishCommand({
        PhoneNumber: n.recipient,
        Message: n.body,
        MessageAttributes: config.sender_id
          ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: config.sender_id } }
          : undefined,
      }),
      { abortSignal: AbortSignal.timeout(TIMEOUT_MS) },
    );
    return { ok: true };
  } catch (err) {
    return classifySdkError(err);
  }
}

export function providerPort(settings: ProviderSettings): ProviderPort {
  const configFor = configSource(settings);
  const webhookOptions = {
    allowLoopback: settings.allowLoopbackWebhooks,
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: 64 * 1024,
  };
  return {
    configFor: async (tenantId, channel) => (channel === 'in_app' ? {} : configFor(tenantId, channel)),
    async send(n, config) {
      if (n.channel === 'in_app') return { ok: true };
      if (!config) return { ok: false, kind: 'permanent', reason: 'not_configured' };
      switch (n.channel) {
        case 'telegram':
          return telegram(n, config);
        case 'email':
          return email(n, config);
        case 'sms':
          return sms(n, config);
        case 'webhook':
          return sendWebhook(
            n.recipient,
            {
              id: n.idempotency_key.replace(/[^A-Za-z0-9_-]/g, '_'),
              secret: config.signing_secret ?? '',
              body: JSON.stringify({
                type: 'notification.delivered',
                timestamp: new Date().toISOString(),
                data: { notification_id: n.id, tenant_id: n.tenant_id, subject: n.subject, body: n.body },
              }),
            },
            webhookOptions,
          );
      }
    },
  };
}
