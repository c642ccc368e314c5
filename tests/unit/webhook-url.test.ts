import { describe, expect, it } from 'vitest';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { isUnderUrl, webhookUrlProblem } from '#shared/domain/integrations/webhook-target';
import { checkConfig } from '#shared/domain/integrations/use-cases';
import { ValidationError } from '#shared/kernel/errors';

/** A webhook connection's url, checked when the connection is saved (docs/api.md section 9.3). */

const refused = (url: string, allowLoopback = false) => webhookUrlProblem(url, allowLoopback) !== undefined;

describe('webhook url at save', () => {
  it('accepts a public https URL', () => {
    for (const url of [
      'https://hooks.acme.example/ops',
      'https://93.184.216.34/x',
      'https://[2606:4700::1111]/hook',
    ])
      expect(webhookUrlProblem(url, false), url).toBeUndefined();
  });

  it('refuses http, credentials and what is not a URL', () => {
    expect(webhookUrlProblem('http://hooks.acme.example/ops', false)?.code).toBe('not_https');
    expect(webhookUrlProblem('https://user:pw@hooks.acme.example/', false)?.code).toBe('credentials_in_url');
    expect(webhookUrlProblem('hooks.acme.example', false)?.code).toBe('invalid_url');
  });

  it('refuses loopback, private, link-local, CGNAT and metadata addresses in every spelling', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://2130706433/', // decimal 127.0.0.1
      'https://0177.0.0.1/', // octal
      'https://0x7f.0.0.1/', // hex
      'https://0x7f000001/',
      'https://127.1/', // short
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/', // IPv4-mapped IPv6
      'https://[::ffff:a9fe:a9fe]/', // mapped 169.254.169.254
      'https://[fd00::1]/', // unique local
      'https://[fe80::1]/', // link-local
      'https://10.0.0.5/',
      'https://192.168.1.1/',
      'https://172.16.0.1/',
      'https://100.64.0.1/', // CGNAT
      'https://100.127.255.254/',
      'https://169.254.169.254/latest/meta-data/', // metadata
      'https://0.0.0.0/',
      'https://localhost/',
      'https://api.localhost/',
      'https://metadata.google.internal/',
      'https://LOCALHOST./',
    ])
      expect(webhookUrlProblem(url, false)?.code, url).toBe('forbidden_target');
  });

  it('lets the local runtime reach its loopback sandbox, and nothing else private', () => {
    expect(webhookUrlProblem('http://127.0.0.1:4000/hooks', true)).toBeUndefined();
    expect(webhookUrlProblem('http://[::1]:4000/hooks', true)).toBeUndefined();
    expect(webhookUrlProblem('http://localhost:4000/hooks', true)).toBeUndefined();
    for (const url of [
      'http://10.0.0.5/',
      'https://169.254.169.254/',
      'http://hooks.acme.example/',
      'https://100.64.0.1/',
    ])
      expect(refused(url, true), url).toBe(true);
  });

  it('is a 422 on config.url when a webhook connection is saved', () => {
    const webhook = adapterByKey('webhook')!;
    let error: unknown;
    try {
      checkConfig(webhook, { url: 'https://2130706433/hooks' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'config.url', code: 'forbidden_target' }),
    ]);
    expect(checkConfig(webhook, { url: 'http://127.0.0.1:4000/hooks' }, true)).toEqual({
      url: 'http://127.0.0.1:4000/hooks',
    });
  });
});

describe('a webhook recipient under its connection url', () => {
  it('is the url or a path below it, on the same origin', () => {
    const base = 'https://hooks.acme.example/ops';
    expect(isUnderUrl('https://hooks.acme.example/ops', base)).toBe(true);
    expect(isUnderUrl('https://hooks.acme.example/ops/invoices?x=1', base)).toBe(true);
    expect(isUnderUrl('https://hooks.acme.example/opsx', base)).toBe(false);
    expect(isUnderUrl('https://hooks.acme.example/', base)).toBe(false);
    expect(isUnderUrl('https://evil.example/ops', base)).toBe(false);
    expect(isUnderUrl('https://hooks.acme.example:8443/ops', base)).toBe(false);
    expect(isUnderUrl('https://u:p@hooks.acme.example/ops', base)).toBe(false);
    expect(isUnderUrl('not a url', base)).toBe(false);
  });
});
