import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '#functions/adapters/webhook';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';
import { backoffSeconds, classifyStatus } from '#shared/domain/notifications/channels';
import { decideGate } from '#shared/domain/notifications/gate';
import { checkPolicy, type PolicyContext } from '#shared/domain/notifications/policy-check';

const ok: PolicyContext = { channelState: 'active', recipientIsMember: true, allowLoopback: false };
const codes = (input: Parameters<typeof checkPolicy>[0], ctx = ok) =>
  checkPolicy(input, ctx).map((e) => e.code);

describe('policy check', () => {
  it('passes well-formed drafts on every channel', () => {
    expect(
      codes({ channel: 'in_app', recipient: '0190a0b0-0000-7000-8000-000000000000', body: 'hi' }),
    ).toEqual([]);
    expect(codes({ channel: 'telegram', recipient: '-100123', body: 'hi' })).toEqual([]);
    expect(codes({ channel: 'email', recipient: 'a@b.example', subject: 's', body: 'hi' })).toEqual([]);
    expect(codes({ channel: 'sms', recipient: '+4915112345678', body: 'hi' })).toEqual([]);
    expect(codes({ channel: 'webhook', recipient: 'https://hooks.example.com/x', body: 'hi' })).toEqual([]);
  });

  it('checks recipient format per channel', () => {
    expect(codes({ channel: 'sms', recipient: '015112345678', body: 'hi' })).toEqual(['invalid_recipient']);
    expect(codes({ channel: 'email', recipient: 'nobody', subject: 's', body: 'hi' })).toEqual([
      'invalid_recipient',
    ]);
    expect(codes({ channel: 'telegram', recipient: '@chan', body: 'hi' })).toEqual(['invalid_recipient']);
    expect(codes({ channel: 'webhook', recipient: 'http://hooks.example.com', body: 'hi' })).toEqual([
      'invalid_recipient',
    ]);
    expect(codes({ channel: 'webhook', recipient: 'https://u:p@hooks.example.com', body: 'hi' })).toEqual([
      'invalid_recipient',
    ]);
    expect(codes({ channel: 'webhook', recipient: 'http://127.0.0.1:9/x', body: 'hi' })).toEqual([
      'invalid_recipient',
    ]);
    expect(
      codes(
        { channel: 'webhook', recipient: 'http://127.0.0.1:9/x', body: 'hi' },
        { ...ok, allowLoopback: true },
      ),
    ).toEqual([]);
    expect(
      codes({ channel: 'in_app', recipient: 'someone', body: 'hi' }, { ...ok, recipientIsMember: false }),
    ).toEqual(['invalid_recipient']);
  });

  it('limits body length per channel and requires an email subject', () => {
    expect(codes({ channel: 'sms', recipient: '+4915112345678', body: 'x'.repeat(919) })).toEqual([
      'body_too_long',
    ]);
    expect(codes({ channel: 'sms', recipient: '+4915112345678', body: 'x'.repeat(918) })).toEqual([]);
    expect(codes({ channel: 'email', recipient: 'a@b.example', body: 'hi' })).toEqual(['subject_required']);
  });

  it('refuses a channel the tenant disabled, but leaves an unconnected one to the gate', () => {
    expect(
      codes({ channel: 'telegram', recipient: '1', body: 'hi' }, { ...ok, channelState: 'disabled' }),
    ).toEqual(['channel_disabled']);
    expect(
      codes({ channel: 'telegram', recipient: '1', body: 'hi' }, { ...ok, channelState: undefined }),
    ).toEqual([]);
  });

  it('refuses secret-looking content in body, subject or metadata', () => {
    const base = { channel: 'telegram' as const, recipient: '1' };
    expect(codes({ ...base, body: 'key AKIAABCDEFGHIJKLMNOP' })).toEqual(['secret_like_content']);
    expect(codes({ ...base, body: '-----BEGIN RSA PRIVATE KEY-----' })).toEqual(['secret_like_content']);
    expect(codes({ ...base, body: 'ok', metadata: { note: 'password=hunter2hunter2' } })).toEqual([
      'secret_like_content',
    ]);
    expect(codes({ ...base, body: 'Your password was changed' })).toEqual([]);
  });
});

describe('backoff schedule', () => {
  const s = { baseSeconds: 2, capSeconds: 60 };
  it('doubles per attempt within [half, full] of the exponential step, capped', () => {
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, s, () => 1))).toEqual([2, 4, 8, 16]);
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, s, () => 0))).toEqual([1, 2, 4, 8]);
    expect(backoffSeconds(20, s, () => 1)).toBe(60);
    expect(backoffSeconds(20, s, () => 0)).toBe(30);
    for (let i = 0; i < 200; i++) {
      const v = backoffSeconds(3, s);
      expect(v).toBeGreaterThanOrEqual(4);
      expect(v).toBeLessThanOrEqual(8);
    }
  });

  it('classifies provider answers', () => {
    expect(classifyStatus(202)).toEqual({ ok: true });
    for (const st of [408, 429, 500, 503])
      expect(classifyStatus(st)).toMatchObject({ ok: false, kind: 'transient' });
    for (const st of [400, 401, 404, 410])
      expect(classifyStatus(st)).toMatchObject({ ok: false, kind: 'permanent' });
  });

  it('classifies the edges of each class, and names the status in the reason', () => {
    for (const st of [200, 299]) expect(classifyStatus(st), String(st)).toEqual({ ok: true });
    for (const st of [408, 425, 429, 500, 599])
      expect(classifyStatus(st), String(st)).toEqual({ ok: false, kind: 'transient', reason: `http_${st}` });
    for (const st of [199, 300, 399, 407, 499])
      expect(classifyStatus(st), String(st)).toEqual({ ok: false, kind: 'permanent', reason: `http_${st}` });
  });
});

describe('provider gate', () => {
  it('opens only with an active connection and a private configuration', () => {
    expect(decideGate('in_app', undefined, false)).toEqual({ open: true });
    expect(decideGate('sms', undefined, true)).toEqual({ open: false, reason: 'not_connected' });
    expect(decideGate('sms', 'disabled', true)).toEqual({ open: false, reason: 'not_connected' });
    expect(decideGate('sms', 'active', false)).toEqual({ open: false, reason: 'not_configured' });
    expect(decideGate('sms', 'active', true)).toEqual({ open: true });
  });
});

describe('webhook signature and target checks', () => {
  const secretBytes = Buffer.from('a-test-secret-of-enough-length!!');
  const secret = `whsec_${secretBytes.toString('base64')}`;

  it('signs per Standard Webhooks: v1,base64(HMAC-SHA256(id.timestamp.body))', () => {
    const at = new Date(1_700_000_000_000);
    const body = '{"hello":"world"}';
    const expected = createHmac('sha256', secretBytes).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(signWebhook(secret, 'msg_1', at, body)).toBe(`v1,${expected}`);
  });

  it('produces headers the reference verifier accepts, and rejects a tampered body', () => {
    const at = new Date();
    const body = '{"a":1}';
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signWebhook(secret, 'msg_2', at, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ a: 1 });
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
  });

  it('refuses private, loopback, link-local and mapped addresses', () => {
    for (const a of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
      '0.0.0.0',
    ])
      expect(isForbiddenAddress(a, false), a).toBe(true);
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect(isForbiddenAddress(a, false), a).toBe(false);
    expect(isForbiddenAddress('127.0.0.1', true)).toBe(false);
    expect(isForbiddenAddress('169.254.169.254', true)).toBe(true);
  });
});
