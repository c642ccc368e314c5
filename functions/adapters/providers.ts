import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { classifyStatus } from '#shared/domain/notifications/channels';
import { isUnderUrl } from '#shared/domain/integrations/webhook-target';
import type {
  Notification,
  ProviderConnection,
  ProviderSender,
  SendResult,
} from '#shared/domain/notifications/ports';
import type { ProviderSettings } from '#functions/config';
import { clientOptions, made } from './client-options';
import { sendWebhook } from './webhook';

/**
 * Channel adapters: each send uses the config and secret of the tenant's connection of the
 * channel (shared/domain/integrations/adapters/ declares their fields). SDK clients are created
 * once per function; retries are ours (the queue's backoff), so each client makes exactly one
 * attempt, within the provider timeout. The local runtime points the SES and SNS clients and the
 * Telegram API at its loopback sandbox.
 */

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

export function providerSender(settings: ProviderSettings, allowLoopback: boolean): ProviderSender {
  const { clients } = settings;
  // One attempt, bounded by the provider timeout like every other channel's call.
  const once = { maxAttempts: 1, requestTimeoutMs: settings.timeoutMs };
  const ses = made(new SESv2Client(clientOptions(clients?.sesv2, once)));
  const sns = made(new SNSClient(clientOptions(clients?.sns, once)));
  const webhookOptions = {
    allowLoopback,
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

  const telegram = async (n: Notification, { config, secret }: ProviderConnection): Promise<SendResult> => {
    try {
      const res = await fetch(`${settings.telegramApiUrl}/bot${secret?.bot_token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: n.recipient,
          text: n.body,
          ...(config.disable_notification === true ? { disable_notification: true } : {}),
        }),
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

  const email = (n: Notification, { config: c }: ProviderConnection) =>
    sdkSend((abortSignal) =>
      ses.send(
        new SendEmailCommand({
          FromEmailAddress: c.from_address as string,
          Destination: { ToAddresses: [n.recipient] },
          ...(c.reply_to ? { ReplyToAddresses: [c.reply_to as string] } : {}),
          Content: {
            Simple: {
              Subject: { Data: n.subject ?? '', Charset: 'UTF-8' },
              Body: { Text: { Data: n.body, Charset: 'UTF-8' } },
            },
          },
          ...(c.configuration_set ? { ConfigurationSetName: c.configuration_set as string } : {}),
        }),
        { abortSignal },
      ),
    );

  const sms = (n: Notification, { config: c }: ProviderConnection) =>
    sdkSend((abortSignal) =>
      sns.send(
        new PublishCommand({
          PhoneNumber: n.recipient,
          Message: n.body,
          MessageAttributes: {
            ...(c.sender_id
              ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: c.sender_id as string } }
              : {}),
            ...(c.sms_type
              ? { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: c.sms_type as string } }
              : {}),
          },
        }),
        { abortSignal },
      ),
    );

  return {
    async send(n, c) {
      switch (n.channel) {
        case 'in_app':
          return { ok: true };
        case 'telegram':
          return telegram(n, c);
        case 'email':
          return email(n, c);
        case 'sms':
          return sms(n, c);
        case 'webhook':
          // The connection names the tenant's endpoint; a notification may address it or below.
          if (typeof c.config.url !== 'string' || !isUnderUrl(n.recipient, c.config.url))
            return { ok: false, kind: 'permanent', reason: 'recipient_outside_connection' };
          return sendWebhook(
            n.recipient,
            {
              id: n.idempotency_key.replace(/[^A-Za-z0-9_-]/g, '_'),
              secret: c.secret?.signing_secret ?? '',
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
