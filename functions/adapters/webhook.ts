import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';
import { classifyStatus } from '#shared/domain/notifications/channels';
import { guardedLookup } from './probe';
import type { SendResult } from '#shared/domain/notifications/ports';

/**
 * The Standard Webhooks sender: a real HTTPS POST with `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (v1, HMAC-SHA256 over `id.timestamp.body`). The target is checked after DNS
 * resolution, at connect time (a custom `lookup`), so DNS rebinding cannot reach a private address.
 * No redirects are followed, the call has one deadline and the response body is capped.
 */

export interface WebhookOptions {
  allowLoopback: boolean;
  /** One deadline for the whole call: lookup, connect, TLS, the answer and its body. */
  timeoutMs: number;
  maxResponseBytes: number;
}

export const signWebhook = (secret: string, id: string, at: Date, body: string) =>
  new Webhook(secret).sign(id, at, body);

/** Every secret's `v1,` signature, space-separated (the Standard Webhooks header). */
export const signAll = (secrets: string[], id: string, at: Date, body: string) =>
  secrets.map((secret) => signWebhook(secret, id, at, body)).join(' ');

/**
 * The headers of a Standard Webhooks request, signed with each given secret: the channel's
 * notifications (one secret) and event subscriptions (two during a rotation) send the same.
 */
export const signedHeaders = (secrets: string[], id: string, at: Date, body: string) => ({
  'content-type': 'application/json',
  'user-agent': 'ops-platform-webhooks/1',
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': signAll(secrets, id, at, body),
  'content-length': String(Buffer.byteLength(body)),
});

export function sendWebhook(
  target: string,
  payload: { id: string; body: string; secret: string },
  options: WebhookOptions,
): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ ok: false, kind: 'permanent', reason: 'invalid_url' });
  }
  const insecureOk = options.allowLoopback && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !insecureOk)
    return Promise.resolve({ ok: false, kind: 'permanent', reason: 'not_https' });

  // Node connects to an IP literal without calling `lookup` (the URL parser has already turned
  // decimal, octal, hex and short IPv4 forms into dotted ones): check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && isForbiddenAddress(literal, options.allowLoopback))
    return Promise.resolve({ ok: false, kind: 'permanent', reason: 'forbidden_target' });

  const at = new Date();
  const headers = signedHeaders([payload.secret], payload.id, at, payload.body);

  return new Promise<SendResult>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers, lookup: guardedLookup(options.allowLoopback) as never });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      options.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err.code === 'EFORBIDDENTARGET')
        resolve({ ok: false, kind: 'permanent', reason: 'forbidden_target' });
      else if (err.code === 'ENOTFOUND') resolve({ ok: false, kind: 'permanent', reason: 'dns_not_found' });
      else
        resolve({
          ok: false,
          kind: 'transient',
          reason: err.code === 'ETIMEDOUT' ? 'timeout' : 'network_error',
        });
    });
    req.on('response', (res) => {
      // The body is only counted, never kept: past the cap the connection is closed.
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxResponseBytes) res.destroy();
      });
      const finish = () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        // Redirects are never followed: the target must answer itself.
        if (status >= 300 && status < 400)
          resolve({ ok: false, kind: 'permanent', reason: `redirect_${status}` });
        else resolve(classifyStatus(status));
      };
      res.on('end', finish);
      res.on('close', finish);
    });
    req.end(payload.body);
  });
}
