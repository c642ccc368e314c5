import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { classifyStatus } from '#shared/domain/notifications/channels';
import type { SendResult } from '#shared/domain/notifications/ports';

/**
 * The Standard Webhooks sender: a real HTTPS POST with `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (v1, HMAC-SHA256 over `id.timestamp.body`). The target is checked after DNS
 * resolution, at connect time (a custom `lookup`), so DNS rebinding cannot reach a private address.
 * No redirects are followed, the call has a timeout and the response body is capped.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Private, loopback, link-local, CGNAT, multicast and reserved addresses (and IPv4-mapped ones). */
export function isForbiddenAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = family === 6 && /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const [addr, type] = mapped
    ? [mapped, 'ipv4' as const]
    : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (allowLoopback && LOOPBACK.check(addr, type)) return false;
  return blocked.check(addr, type);
}

export interface WebhookOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

export const signWebhook = (secret: string, id: string, at: Date, body: string) =>
  new Webhook(secret).sign(id, at, body);

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

  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'ops-platform-webhooks/1',
    'webhook-id': payload.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signWebhook(payload.secret, payload.id, at, payload.body),
    'content-length': String(Buffer.byteLength(payload.body)),
  };
  const guardedLookup = (
    hostname: string,
    opts: object,
    cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address, options.allowLoopback));
      if (bad || list.length === 0) {
        const e = Object.assign(new Error('forbidden webhook target'), { code: 'EFORBIDDENTARGET' });
        return cb(e, '', 0);
      }
      if ((opts as { all?: boolean }).all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });

  // An IP literal never goes through lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && isForbiddenAddress(literal, options.allowLoopback))
    return Promise.resolve({ ok: false, kind: 'permanent', reason: 'forbidden_target' });

  return new Promise<SendResult>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers,
      lookup: guardedLookup as never,
      timeout: options.timeoutMs,
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      options.timeoutMs,
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
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
