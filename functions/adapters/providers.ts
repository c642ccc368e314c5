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
import type { ProviderSettings } from '#functions/config';
import { sendWebhook } from './webhook';

/**
 * Channel adapters and the private provider configuration they need. SDK clients are created once
 * per function; retries are ours (the queue's backoff), so each client makes exactly one attempt.
 * The local runtime points the SES and SNS clients and the Telegram API at its loopback sandbox.
 */

const CACHE_MS = 60_000;

/** Provider configs by reference: read from SSM (decrypted) in the cloud, cached for a minute. */
function configSource(settings: ProviderSettings, ssm: SSMClient) {
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

export function providerPort(settings: ProviderSettings, allowLoopbackWebhooks: boolean): ProviderPort {
  const { clients } = settings;
  const ses = new SESv2Client({ ...clients?.sesv2, maxAttempts: 1 });
  const sns = new SNSClient({ ...clients?.sns, maxAttempts: 1 });
  const configFor = configSource(settings, new SSMClient(clients?.ssm ?? {}));
  const webhookOptions = {
    allowLoopback: allowLoopbackWebhooks,
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: 64 * 1024,
  };

  /** One SDK call within the provider timeout. */
  const sdkSend = async (call: (abortSignal: AbortSignal) => Promise<unknown>): Promise<SendResult> => {
    try {
      await call(AbortSignal.timeout(settings.timeoutMs));
      return { ok: true };
    } catch (err) {
      return classifySdkError(err);
    }
  };

  const telegram = async (n: Notification, c: ProviderConfig): Promise<SendResult> => {
    try {
      const res = await fetch(`${settings.telegramApiUrl}/bot${c.bot_token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: n.recipient, text: n.body }),
        redirect: 'error',
        signal: AbortSignal.timeout(settings.timeoutMs),
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
  };

  const email = (n: Notification, c: ProviderConfig) =>
    sdkSend((abortSignal) =>
      ses.send(
        new SendEmailCommand({
          FromEmailAddress: c.from_address,
          Destination: { ToAddresses: [n.recipient] },
          Content: {
            Simple: {
              Subject: { Data: n.subject ?? '', Charset: 'UTF-8' },
              Body: { Text: { Data: n.body, Charset: 'UTF-8' } },
            },
          },
          ...(c.configuration_set ? { ConfigurationSetName: c.configuration_set } : {}),
        }),
        { abortSignal },
      ),
    );

  const sms = (n: Notification, c: ProviderConfig) =>
    sdkSend((abortSignal) =>
      sns.send(
        new PublishCommand({
          PhoneNumber: n.recipient,
          Message: n.body,
          MessageAttributes: c.sender_id
            ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: c.sender_id } }
            : undefined,
        }),
        { abortSignal },
      ),
    );

  return {
    configFor: async (tenantId, channel) => (channel === 'in_app' ? {} : configFor(tenantId, channel)),
    async send(n, c) {
      if (n.channel === 'in_app') return { ok: true };
      if (!c) return { ok: false, kind: 'permanent', reason: 'not_configured' };
      switch (n.channel) {
        case 'telegram':
          return telegram(n, c);
        case 'email':
          return email(n, c);
        case 'sms':
          return sms(n, c);
        case 'webhook':
          return sendWebhook(
            n.recipient,
            {
              id: n.idempotency_key.replace(/[^A-Za-z0-9_-]/g, '_'),
              secret: c.signing_secret ?? '',
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
