import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { ProbeResult } from '#shared/domain/integrations/ports';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';

const forbiddenTarget = (): NodeJS.ErrnoException =>
  Object.assign(new Error('forbidden webhook target'), { code: 'EFORBIDDENTARGET' });

/** `dns.lookup` that refuses the whole answer when any address of it is forbidden. */
export const guardedLookup =
  (allowLoopback: boolean) =>
  (
    hostname: string,
    opts: object,
    cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(hostname, { ...opts, all: true }, (err, list) => {
      if (err) return cb(err, '', 0);
      if (list.length === 0 || list.some((a) => isForbiddenAddress(a.address, allowLoopback)))
        return cb(forbiddenTarget(), '', 0);
      if ((opts as { all?: boolean }).all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });

/**
 * "Provider reachable" against a real endpoint: one HEAD request through the address guard of
 * webhooks (the resolved address, and an IP literal, must not be private, loopback, link-local,
 * CGNAT or metadata), no redirect followed, no body read. Reachable: any HTTP answer below 500
 * (DNS, TCP, TLS and the server answered; a 401 or 404 at an API root is still the provider).
 * Reasons are short and never carry the provider's text.
 */
export function probeUrl(target: string, options: { allowLoopback: boolean; timeoutMs: number }) {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve<ProbeResult>({ ok: false, reason: 'invalid url' });
  }
  if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:'))
    return Promise.resolve<ProbeResult>({ ok: false, reason: 'not https' });
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && isForbiddenAddress(literal, options.allowLoopback))
    return Promise.resolve<ProbeResult>({ ok: false, reason: 'forbidden address' });
  return new Promise<ProbeResult>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'HEAD',
      headers: { 'user-agent': 'ops-platform-diagnostics/1' },
      lookup: guardedLookup(options.allowLoopback) as never,
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      options.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({
        ok: false,
        reason:
          err.code === 'EFORBIDDENTARGET'
            ? 'forbidden address'
            : err.code === 'ENOTFOUND'
              ? 'dns not found'
              : err.code === 'ETIMEDOUT'
                ? 'timeout'
                : 'network error',
      });
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      const status = res.statusCode ?? 0;
      res.destroy();
      resolve(status > 0 && status < 500 ? { ok: true } : { ok: false, reason: `HTTP ${status}` });
    });
    req.end();
  });
}
