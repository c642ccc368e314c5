import { describe, expect, it, vi } from 'vitest';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { isUnderUrl, webhookUrlProblem } from '#shared/domain/integrations/webhook-target';
import { checkConfig } from '#shared/domain/integrations/connection-checks';
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

  it('says what is wrong in words', () => {
    expect(webhookUrlProblem('hooks.acme.example', false)).toEqual({
      code: 'invalid_url',
      message: 'must be an absolute https URL',
    });
    expect(webhookUrlProblem('http://hooks.acme.example/', false)).toEqual({
      code: 'not_https',
      message: 'must be an https URL',
    });
    // A user name alone is a credential too.
    expect(webhookUrlProblem('https://user@hooks.acme.example/', false)).toEqual({
      code: 'credentials_in_url',
      message: 'must not carry credentials',
    });
    expect(webhookUrlProblem('https://:pw@hooks.acme.example/', false)?.code).toBe('credentials_in_url');
    expect(webhookUrlProblem('https://10.0.0.1/', false)).toEqual({
      code: 'forbidden_target',
      message: 'must not name a private, loopback, link-local, CGNAT or metadata address',
    });
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
    // Only http and https, and only the name localhost itself, not one that contains it.
    expect(webhookUrlProblem('ftp://127.0.0.1/hooks', true)?.code).toBe('not_https');
    expect(webhookUrlProblem('http://localhost.acme.example/', true)?.code).toBe('not_https');
    expect(webhookUrlProblem('http://notlocalhost/', true)?.code).toBe('not_https');
    expect(webhookUrlProblem('https://user@127.0.0.1/', true)?.code).toBe('credentials_in_url');
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

describe('host names that name this machine or a metadata service', () => {
  it('are refused whatever DNS says; names that only contain them are not', async () => {
    // Loaded afresh so that the module's name pattern is covered by this test (see webhook-target.test.ts).
    vi.resetModules();
    const { webhookUrlProblem: check } = await import('#shared/domain/integrations/webhook-target');
    for (const host of [
      'localhost',
      'metadata',
      'metadata.google.internal',
      'instance-data',
      'a.localhost',
      'Metadata',
    ])
      expect(check(`https://${host}/hook`, false)?.code, host).toBe('forbidden_target');
    for (const host of [
      'localhost.acme.example',
      'mylocalhost',
      'metadata.acme.example',
      'the-metadata',
      'instance-data.acme.example',
      'metadata.google.internal.acme.example',
      'a.localhost.acme.example',
    ])
      expect(check(`https://${host}/hook`, false), host).toBeUndefined();
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
