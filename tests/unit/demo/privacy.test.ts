import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_PAYLOADS } from '#shared/demo/index';
import { demoStaticFiles } from '#shared/demo/static-files';
import { findLeaks } from '#tests/support/demo/scan';

describe('demo privacy scan', () => {
  it.each(Object.entries(DEMO_PAYLOADS))(
    '%s carries no secret, secret reference, raw payload or personal data',
    (_id, { body }) => {
      expect(findLeaks(body)).toEqual([]);
    },
  );

  it('the committed static files carry none either', async () => {
    for (const name of Object.keys(demoStaticFiles())) {
      const json = JSON.parse(
        await readFile(new URL(`../../../demo-static/data/${name}`, import.meta.url), 'utf8'),
      );
      expect(findLeaks(json), name).toEqual([]);
    }
  });

  // The scan itself must be able to fail: each planted sample is caught, by the named rule.
  const planted: [string, unknown][] = [
    ['forbidden key', { password: 'x' }],
    ['forbidden key', { rows: [{ secretRef: 'prod/telegram' }] }],
    ['forbidden key', { rawPayload: 'x' }],
    ['forbidden key', { requestBody: 'x' }],
    ['forbidden key', { email: 'x' }],
    ['email address', { note: 'write to jane.doe@example.com' }],
    ['phone number', { note: 'call +1 415 555 0100' }],
    ['aws access key', { note: 'AKIAIOSFODNN7EXAMPLE' }],
    ['private key', { note: '-----BEGIN RSA PRIVATE KEY-----' }],
    ['bearer token', { note: 'Bearer abcdefghijklmnopqrstuvwxyz012345' }],
    ['jwt', { note: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N' }],
    ['api key', { note: 'sk_live_0123456789abcdef' }],
    ['bot token', { note: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1' }],
    ['secret assignment', { note: 'password=hunter22' }],
    ['secret reference', { note: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:x' }],
    ['secret reference', { note: '{{resolve:ssm:/ops/telegram}}' }],
    ['long random string', { note: 'k9Xq2mP7vL4wR8tZ1nB6cF3hJ5dS0aYgE' }],
    ['long hex string', { note: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b' }],
    ['ip address', { note: 'host 10.0.4.17' }],
    ['external url', { note: 'see https://hooks.example.com/x' }],
    ['card number', { note: '4111 1111 1111 1111' }],
    ['iban', { note: 'DE89 3704 0044 0532 0130 00' }],
    ['raw json in a string', { note: '{"update_id": 1}' }],
  ];
  it.each(planted)('catches a planted %s', (kind, sample) => {
    expect(findLeaks(sample).map((l) => l.kind)).toContain(kind);
  });

  it('leaves the local runtime URL alone', () => {
    expect(findLeaks({ command: 'curl -s http://127.0.0.1:3000/demo/public' })).toEqual([]);
  });
});
