import { describe, expect, it } from 'vitest';
import { auditEvent, redact } from '#shared/domain/audit';
import { webhookUrlProblem } from '#shared/domain/integrations/webhook-target';
import { checkPolicy, type PolicyContext } from '#shared/domain/notifications/policy-check';

/**
 * What a refused draft tells its client (docs/api.md section 7: the 422 lists every reason with
 * its field), and what audit metadata keeps of a secret (docs/api.md section 5).
 */

const ok: PolicyContext = { channelState: 'active', recipientIsMember: true, allowLoopback: false };
const reasons = (input: Parameters<typeof checkPolicy>[0], ctx = ok) =>
  checkPolicy(input, ctx).map((r) => `${r.path} ${r.code}: ${r.message}`);
const FORBIDDEN = 'must not name a private, loopback, link-local, CGNAT or metadata address';
const webhook = (recipient: string, allowLoopback = false) =>
  reasons({ channel: 'webhook', recipient, body: 'hi' }, { ...ok, allowLoopback });

describe('a webhook target that is refused says why', () => {
  it.each([
    ['not a url', 'must be an absolute https URL'],
    ['http://hooks.example.com/x', 'must be an https URL'],
    ['ftp://hooks.example.com/x', 'must be an https URL'],
    ['https://user:pw@hooks.example.com/x', 'must not carry credentials'],
    ['https://user@hooks.example.com/x', 'must not carry credentials'],
    ['https://:pw@hooks.example.com/x', 'must not carry credentials'],
    ['https://127.0.0.1/x', FORBIDDEN],
    ['https://localhost/x', FORBIDDEN],
    ['https://[::1]/x', FORBIDDEN],
    ['http://localhost:9/x', 'must be an https URL'],
    // Spellings of loopback, unspecified and metadata targets: the hub's classifier refuses them
    // at save (shared/domain/integrations/webhook-target.ts), and so does the policy check.
    ['https://[::ffff:127.0.0.1]/h', FORBIDDEN],
    ['https://[::127.0.0.1]/h', FORBIDDEN],
    ['https://localhost./h', FORBIDDEN],
    ['https://0.0.0.0/h', FORBIDDEN],
    ['https://foo.localhost/h', FORBIDDEN],
    ['https://169.254.169.254/latest/meta-data', FORBIDDEN],
    ['https://[fd00::1]/h', FORBIDDEN],
    ['https://2130706433/h', FORBIDDEN],
    ['https://metadata.google.internal/h', FORBIDDEN],
  ])('%s: %s', (target, why) => {
    expect(webhook(target)).toEqual([`recipient invalid_recipient: webhook recipient ${why}`]);
  });

  it('the local runtime may target its own loopback sandbox over http or https, and nothing else over http', () => {
    for (const target of [
      'http://127.0.0.1:9/x',
      'http://localhost:9/x',
      'http://[::1]:9/x',
      'https://localhost/x',
    ])
      expect(webhook(target, true), target).toEqual([]);
    expect(webhook('http://hooks.example.com/x', true)).toEqual([
      'recipient invalid_recipient: webhook recipient must be an https URL',
    ]);
    expect(webhook('http://user:pw@127.0.0.1:9/x', true)).toEqual([
      'recipient invalid_recipient: webhook recipient must not carry credentials',
    ]);
  });
});

describe('one classifier of webhook addresses', () => {
  // Spellings a classifier of its own could read differently from the hub's.
  const TARGETS = [
    'https://hooks.example.com/x',
    'https://93.184.216.34/x',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/x',
    'http://127.0.0.1:9/x',
    'https://127.1/x',
    'https://0x7f000001/x',
    'https://017700000001/x',
    'https://[::ffff:7f00:1]/x',
    'https://[0:0:0:0:0:0:0:1]/x',
    'https://[::]/x',
    'https://[64:ff9b::a9fe:a9fe]/x',
    'https://[2002:a9fe:a9fe::]/x',
    'https://LOCALHOST/x',
    'https://a.b.localhost./x',
    'https://metadata/x',
    'https://instance-data/x',
    'https://10.0.0.1/x',
    'https://100.64.0.1/x',
    'https://[fe80::1%25eth0]/x',
    'http://[::1]:9/x',
  ];
  it.each(TARGETS.flatMap((t) => [[t, false] as const, [t, true] as const]))(
    '%s (loopback allowed: %s): the policy refuses it exactly when the hub does',
    (target, allowLoopback) => {
      const hub = webhookUrlProblem(target, allowLoopback);
      expect(webhook(target, allowLoopback)).toEqual(
        hub ? [`recipient invalid_recipient: webhook recipient ${hub.message}`] : [],
      );
    },
  );
});

describe('every reason of a refused draft, each on its field, in words', () => {
  it('names the format, the member rule, the length limit, the subject, the disabled channel and the secret', () => {
    expect(
      reasons(
        { channel: 'sms', recipient: '0151', body: 'x'.repeat(919) },
        { ...ok, channelState: 'disabled' },
      ),
    ).toEqual([
      'recipient invalid_recipient: recipient must be E.164 number: + and 8 to 15 digits',
      'body body_too_long: body is limited to 918 characters on sms',
      'channel channel_disabled: the sms channel is disabled for this tenant',
    ]);
    expect(
      reasons({ channel: 'in_app', recipient: 'someone', body: 'hi' }, { ...ok, recipientIsMember: false }),
    ).toEqual(['recipient invalid_recipient: recipient must be a member of the tenant']);
    expect(reasons({ channel: 'email', recipient: 'a@b.example', body: 'hi' })).toEqual([
      'subject subject_required: email needs a subject',
    ]);
    expect(
      reasons({
        channel: 'email',
        recipient: 'a@b.example',
        subject: 'key AKIAABCDEFGHIJKLMNOP',
        body: 'hi',
      }),
    ).toEqual(['body secret_like_content: content looks like a secret (aws_access_key)']);
  });

  it('finds a secret in the metadata as in the subject and body', () => {
    const base = { channel: 'email' as const, recipient: 'a@b.example' };
    expect(
      reasons({ ...base, subject: 'ok', body: 'ok', metadata: { ref: 'AKIAABCDEFGHIJKLMNOP' } }),
    ).toHaveLength(1);
    expect(reasons({ ...base, subject: 'ok', body: 'ok' })).toEqual([]);
  });
});

describe('audit metadata', () => {
  it('redacts secret-named keys at any depth, in objects and arrays, and keeps everything else', () => {
    expect(
      redact({
        role: 'owner',
        password: 'p',
        nested: { api_key: 'k', keep: 1, list: [{ token: 't', name: 'n' }, 'plain', null] },
        Authorization: 'Bearer x',
        empty: null,
      }),
    ).toEqual({
      role: 'owner',
      password: '[redacted]',
      nested: { api_key: '[redacted]', keep: 1, list: [{ token: '[redacted]', name: 'n' }, 'plain', null] },
      Authorization: '[redacted]',
      empty: null,
    });
    expect(redact([{ secret: 's' }])).toEqual([{ secret: '[redacted]' }]);
    expect(redact('text')).toBe('text');
  });

  it('an audit event stores its metadata redacted, or null when it has none', () => {
    const clock = { now: () => new Date('2031-01-01T00:00:00.000Z') };
    const input = {
      tenant_id: 't',
      event_type: 'thing.done' as const,
      actor_id: 'a',
      entity_type: 'thing',
      entity_id: 'e',
      summary: 's',
    };
    const withMeta = auditEvent(clock, { ...input, metadata: { signature: 'x', n: 1 } });
    expect(JSON.parse(withMeta.metadata_json!)).toEqual({ signature: '[redacted]', n: 1 });
    expect(withMeta.created_at).toBe('2031-01-01T00:00:00.000Z');
    expect(auditEvent(clock, input).metadata_json).toBeNull();
  });
});
