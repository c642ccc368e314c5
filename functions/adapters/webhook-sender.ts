import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';
import type { SendOutcome, WebhookSender } from '#shared/domain/webhooks/ports';
import { guardedLookup } from './probe';
import { signedHeaders } from './webhook';

/**
 * The event subscriptions' sender (docs/api.md, "Event subscriptions"): one Standard Webhooks POST
 * signed with every secret given (`v1,<sig> v1,<sig>` during a rotation), to an address checked
 * after DNS resolution at connect time (the hub's one classifier), no redirects followed, one
 * deadline for the whole call. The answer's body is counted and dropped, never kept.
 */

export interface WebhookSenderOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** `Retry-After` in seconds, as delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

export function webhookSender(options: WebhookSenderOptions): WebhookSender {
  return {
    send(target, message, slow) {
      const start = Date.now();
      const fail = (error_code: string): SendOutcome => ({
        status_code: null,
        error_code,
        duration_ms: Date.now() - start,
        retry_after_s: null,
      });
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return Promise.resolve(fail('invalid_url'));
      }
      if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:'))
        return Promise.resolve(fail('not_https'));
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) && isForbiddenAddress(literal, options.allowLoopback))
        return Promise.resolve(fail('forbidden_target'));

      const at = new Date();
      const headers = signedHeaders(message.secrets, message.id, at, message.body);
      return new Promise<SendOutcome>((resolve) => {
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const req = send(url, {
          method: 'POST',
          headers,
          lookup: guardedLookup(options.allowLoopback) as never,
        });
        const timer = setTimeout(
          () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
          options.timeoutMs,
        );
        // Until the answer's head: a receiver that answers at once but streams its body is not slow.
        const slowTimer = slow && setTimeout(slow.onSlow, slow.afterMs);
        req.on('error', (err: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          clearTimeout(slowTimer);
          if (err.code === 'EFORBIDDENTARGET') resolve(fail('forbidden_target'));
          else if (err.code === 'ENOTFOUND') resolve(fail('dns_not_found'));
          else resolve(fail(err.code === 'ETIMEDOUT' ? 'timeout' : 'network_error'));
        });
        req.on('response', (res) => {
          clearTimeout(slowTimer);
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxResponseBytes) res.destroy();
          });
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            const status = res.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            resolve({
              status_code: status,
              error_code: ok ? null : status >= 300 && status < 400 ? `redirect_${status}` : `http_${status}`,
              duration_ms: Date.now() - start,
              retry_after_s: retryAfterSeconds(res.headers['retry-after'], new Date()),
            });
          };
          res.on('end', finish);
          res.on('close', finish);
        });
        req.end(message.body);
      });
    },
  };
}
