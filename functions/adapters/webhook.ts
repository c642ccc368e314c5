import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';
import { classifyStatus } from '#shared/domain/notifications/channels';
import { guardedLookup } from './probe';
import type { SendResult } from '#shared/domain/notifications/ports';
import type { SlowSignal } from '#shared/domain/webhooks/ports';

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
const signedHeaders = (secrets: string[], id: string, at: Date, body: string) => ({
  'content-type': 'application/json',
  'user-agent': 'ops-platform-webhooks/1',
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': signAll(secrets, id, at, body),
  'content-length': String(Buffer.byteLength(body)),
});

/** Why a signed POST got no status: refused before connecting, or the connection's failure. */
export type PostFailure =
  'invalid_url' | 'not_https' | 'forbidden_target' | 'dns_not_found' | 'timeout' | 'network_error';

export type PostOutcome =
  | { status: number; retryAfter: string | string[] | undefined; durationMs: number }
  | { failure: PostFailure; durationMs: number };

/**
 * One Standard Webhooks POST, signed with each secret, the mechanism of both senders (the
 * notification channel's `sendWebhook`, the event subscriptions' `webhookSender`): the target's
 * scheme and IP literal checked before connecting, the resolved address at connect time, no
 * redirect followed, one deadline, the answer's body counted up to the cap and dropped. `slow` is
 * told once when no answer's head has come by its time.
 */
export function postSigned(
  target: string,
  message: { id: string; body: string; secrets: string[] },
  options: WebhookOptions,
  slow?: SlowSignal,
): Promise<PostOutcome> {
  const start = Date.now();
  const fail = (failure: PostFailure): PostOutcome => ({ failure, durationMs: Date.now() - start });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(fail('invalid_url'));
  }
  if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:'))
    return Promise.resolve(fail('not_https'));
  // Node connects to an IP literal without calling `lookup` (the URL parser has already turned
  // decimal, octal, hex and short IPv4 forms into dotted ones): check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && isForbiddenAddress(literal, options.allowLoopback))
    return Promise.resolve(fail('forbidden_target'));

  const headers = signedHeaders(message.secrets, message.id, new Date(), message.body);
  return new Promise<PostOutcome>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'POST', headers, lookup: guardedLookup(options.allowLoopback) as never });
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
      // The body is only counted, never kept: past the cap the connection is closed.
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
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          durationMs: Date.now() - start,
        });
      };
      res.on('end', finish);
      res.on('close', finish);
    });
    req.end(message.body);
  });
}

const PERMANENT: ReadonlySet<PostFailure> = new Set([
  'invalid_url',
  'not_https',
  'forbidden_target',
  'dns_not_found',
]);

/** The notification channel's send: one secret, the answer as a delivery result. */
export async function sendWebhook(
  target: string,
  payload: { id: string; body: string; secret: string },
  options: WebhookOptions,
): Promise<SendResult> {
  const out = await postSigned(
    target,
    { id: payload.id, body: payload.body, secrets: [payload.secret] },
    options,
  );
  if ('failure' in out)
    return { ok: false, kind: PERMANENT.has(out.failure) ? 'permanent' : 'transient', reason: out.failure };
  // Redirects are never followed: the target must answer itself.
  if (out.status >= 300 && out.status < 400)
    return { ok: false, kind: 'permanent', reason: `redirect_${out.status}` };
  return classifyStatus(out.status);
}
