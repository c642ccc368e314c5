import type { WebhookSender } from '#shared/domain/webhooks/ports';
import { postSigned, type WebhookOptions } from './webhook';

/**
 * The event subscriptions' sender (docs/api.md, "Event subscriptions"): the channel's signed POST
 * (`postSigned`, functions/adapters/webhook.ts) with every secret given (`v1,<sig> v1,<sig>` during
 * a rotation), its answer named for the attempt log: the status, a redirect or `http_<status>`,
 * the failure's code, and `Retry-After`.
 */

/** `Retry-After` in seconds, as delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

export function webhookSender(options: WebhookOptions): WebhookSender {
  return {
    async send(target, message, slow) {
      const out = await postSigned(target, message, options, slow);
      if ('failure' in out)
        return {
          status_code: null,
          error_code: out.failure,
          duration_ms: out.durationMs,
          retry_after_s: null,
        };
      const ok = out.status >= 200 && out.status < 300;
      return {
        status_code: out.status,
        error_code: ok
          ? null
          : out.status >= 300 && out.status < 400
            ? `redirect_${out.status}`
            : `http_${out.status}`,
        duration_ms: out.durationMs,
        retry_after_s: retryAfterSeconds(out.retryAfter, new Date()),
      };
    },
  };
}
