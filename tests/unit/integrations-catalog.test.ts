import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, adapterByKey } from '#shared/domain/integrations/adapters/index';
import { adapterContract, getAdapter, listAdapters } from '#shared/domain/integrations/catalog-read';
import { checkConfig, checkScopes, checkSecret } from '#shared/domain/integrations/connection-checks';
import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import { ADAPTER_KEYS } from '#shared/kernel/names';

const fieldErrors = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors ?? [];
    throw err;
  }
  throw new Error('expected a 422');
};

const adapter = (key: string) => adapterByKey(key)!;

describe('the adapter catalog (docs/api.md section 9.3)', () => {
  it('has at least 8 adapters: the 4 external channels and 2 accounting systems', () => {
    expect(ADAPTERS.length).toBeGreaterThanOrEqual(8);
    expect(ADAPTERS.filter((a) => a.channel).map((a) => a.channel)).toEqual([
      'telegram',
      'email',
      'sms',
      'webhook',
    ]);
    expect(ADAPTERS.filter((a) => a.category === 'accounting').length).toBeGreaterThanOrEqual(2);
    expect(new Set(ADAPTERS.map((a) => a.key)).size).toBe(ADAPTERS.length);
  });

  it.each(ADAPTERS.map((a) => [a.key, a] as const))('%s: a whole, consistent contract', (_key, a) => {
    const contract = adapterContract(a);
    // Every field of AdapterContractRead, required and optional, is filled.
    for (const [field, value] of Object.entries(contract)) {
      if (field === 'channel') continue;
      expect(value, field).toBeDefined();
      if (typeof value === 'string') expect(value.length, field).toBeGreaterThan(0);
    }
    for (const field of [
      'capabilities',
      'supported_connection_scopes',
      'default_connection_scopes',
      'failure_modes',
      'public_notes',
      'operation_contracts',
    ] as const)
      expect(contract[field]!.length, field).toBeGreaterThan(0);
    // A notification adapter's key is its channel: the gate finds it by the channel's name.
    if (a.channel) expect(a.key).toBe(a.channel);
    expect(a.scopes.default.every((s) => a.scopes.supported.includes(s))).toBe(true);
    for (const op of a.operations) {
      expect(a.scopes.supported, op.name).toContain(op.scope);
      for (const mode of [...op.retryable, ...op.permanent]) expect(a.failure_modes, op.name).toContain(mode);
    }
    // The example is a valid config, and the schema the API shows is the one that checks it.
    expect(checkConfig(a, a.config_example)).toEqual(a.config_example);
    expect(contract.config_schema).toEqual(z.toJSONSchema(a.config, { io: 'input' }));
    expect(contract.auth_profile).toMatchObject({ secret_required: a.secret !== null || !!a.oauth });
    expect(a.auth.secret_fields.length > 0).toBe(a.secret !== null || !!a.oauth);
    // OAuth 2 adapters take no secret in a request: the consent brings it.
    if (a.oauth) expect(a.secret).toBeNull();
  });

  it('reads every field of the contract from the declaration (GET /adapters/{key})', () => {
    const a = adapter('ledgerly');
    expect(getAdapter('ledgerly')).toEqual({
      key: 'ledgerly',
      name: a.name,
      status: a.status,
      category: 'accounting',
      direction: a.direction,
      purpose: a.purpose,
      connection_profile_supported: true,
      connection_profile_required: true,
      channel: null,
      auth_profile: { ...a.auth, secret_required: true },
      config_example: a.config_example,
      config_schema: z.toJSONSchema(a.config, { io: 'input' }),
      mapping_example: a.mapping_example,
      payload_schema: a.payload_schema,
      capabilities: [...a.capabilities],
      default_connection_scopes: [...a.scopes.default],
      failure_modes: [...a.failure_modes],
      public_notes: [...a.public_notes],
      required_mapping_keys: [...a.required_mapping_keys],
      supported_connection_scopes: [...a.scopes.supported],
      operation_contracts: a.operations.map((o) => ({ ...o })),
    });
    expect(getAdapter('email')).toMatchObject({ channel: 'email', auth_profile: { secret_required: false } });
    expect(() => getAdapter('nope')).toThrow(NotFoundError);
  });

  it('lists the whole catalog as one page, or one category of it', () => {
    expect(listAdapters()).toEqual({ items: ADAPTERS.map(adapterContract), next_cursor: null });
    expect(listAdapters('accounting').items.map((a) => a.key)).toEqual([
      'xero',
      'quickbooks_online',
      'ledgerly',
      'tallybook',
    ]);
    expect(listAdapters('crm').items.map((a) => a.key)).toEqual(['crm']);
  });

  it('is what ADAPTER_KEYS names, so an intake source is a key of this catalog', () => {
    expect(ADAPTERS.map((a) => a.key)).toEqual([...ADAPTER_KEYS]);
  });

  it('declares the accounting contracts the export relies on', () => {
    const [ledgerly] = adapter('ledgerly').operations;
    expect(ledgerly).toMatchObject({
      batch_size: 50,
      rate_limit: { concurrent: 5, per_minute: 60 },
      idempotency: { strategy: 'header', header: 'Idempotency-Key', retention_hours: 24 },
    });
    expect(adapter('tallybook').operations.every((o) => o.idempotency.strategy === 'natural_key')).toBe(true);
  });

  it('declares Xero and QuickBooks Online as their providers document them, the doubles as doubles', () => {
    const [xeroExport] = adapter('xero').operations;
    expect(xeroExport).toMatchObject({
      request: 'PUT /api.xro/2.0/Invoices',
      rate_limit: { concurrent: 5, per_minute: 60, per_day: 5000 },
      idempotency: { strategy: 'header', header: 'Idempotency-Key' },
    });
    expect(adapter('xero')).toMatchObject({ auth: { type: 'oauth2' }, oauth: { pkce: false } });
    const [qboExport] = adapter('quickbooks_online').operations;
    expect(qboExport).toMatchObject({
      request: 'POST /v3/company/{realm_id}/invoice?requestid=<key>',
      rate_limit: { concurrent: 10, per_minute: 500 },
      idempotency: { strategy: 'natural_key' },
    });
    expect(qboExport!.idempotency).toMatchObject({ lookup: expect.stringContaining("where DocNumber = '") });
    expect(adapter('quickbooks_online').oauth).toMatchObject({ pkce: false });
    // Each document type through its own operation, paced to the calls it makes at the provider.
    for (const key of ['xero', 'quickbooks_online'])
      expect(
        adapter(key)
          .operations.map((o) => o.name)
          .slice(0, 3),
      ).toEqual(['export_invoices', 'export_credit_notes', 'export_payments']);
    expect(
      adapter('xero')
        .operations.map((o) => o.rate_limit?.per_minute)
        .slice(0, 3),
    ).toEqual([60, 20, 30]);
    expect(['ledgerly', 'tallybook'].map((k) => adapter(k).status)).toEqual(['test_double', 'test_double']);
    // A token pair is never typed into a request: only the consent sets it.
    expect(fieldErrors(() => checkSecret(adapter('xero'), { access_token: 'x'.repeat(20) }))).toEqual([
      expect.objectContaining({ path: 'secret', code: 'not_accepted' }),
    ]);
  });
});

describe('connection checks against the adapter', () => {
  it('accepts a subset of the supported scopes, once each', () => {
    expect(checkScopes(adapter('ledgerly'), ['invoices.write', 'accounts.read', 'invoices.write'])).toEqual([
      'invoices.write',
      'accounts.read',
    ]);
  });

  it('names every scope the adapter does not support', () => {
    const errors = fieldErrors(() =>
      checkScopes(adapter('crm'), ['contacts.read', 'invoices.write', 'admin']),
    );
    expect(errors.map((e) => [e.path, e.code])).toEqual([
      ['scopes', 'unsupported_scope'],
      ['scopes', 'unsupported_scope'],
    ]);
    expect(errors[0]!.message).toBe(
      `crm does not support the scope invoices.write (supported: ${adapter('crm').scopes.supported.join(', ')})`,
    );
    expect(errors[1]!.message).toContain('admin');
  });

  it.each(ADAPTERS.filter((a) => Object.keys(a.config_example).length > 0).map((a) => [a.key, a] as const))(
    '%s: config fields are checked and named',
    (_key, a) => {
      const errors = fieldErrors(() => checkConfig(a, { ...a.config_example, surprise: 1 }));
      expect(errors).toContainEqual(
        expect.objectContaining({ path: 'config.surprise', code: 'unrecognized_key' }),
      );
      const [first] = Object.keys(a.config_example);
      const wrong = fieldErrors(() => checkConfig(a, { ...a.config_example, [first!]: { not: 'valid' } }));
      expect(wrong.map((e) => e.path)).toEqual([`config.${first}`]);
    },
  );

  it('requires what a config must hold', () => {
    expect(fieldErrors(() => checkConfig(adapter('email'), {})).map((e) => e.path)).toEqual([
      'config.from_address',
    ]);
    expect(fieldErrors(() => checkConfig(adapter('webhook'), { url: 'http://hooks.example' }))).toEqual([
      expect.objectContaining({ path: 'config.url', code: 'not_https' }),
    ]);
  });

  it('checks a secret without ever echoing its value', () => {
    const token = 'not-a-bot-token-value-9f8e7d';
    const errors = fieldErrors(() => checkSecret(adapter('telegram'), { bot_token: token }));
    expect(errors.map((e) => e.path)).toEqual(['secret.bot_token']);
    expect(JSON.stringify(errors)).not.toContain(token);
    expect(checkSecret(adapter('telegram'), { bot_token: `123456:${'a'.repeat(35)}` })).toEqual({
      bot_token: `123456:${'a'.repeat(35)}`,
    });
  });

  it('refuses a secret for an adapter that sends under the service role', () => {
    expect(fieldErrors(() => checkSecret(adapter('email'), { api_key: 'x'.repeat(20) }))).toEqual([
      {
        path: 'secret',
        code: 'not_accepted',
        message: 'email takes no secret: it sends under the service role',
      },
    ]);
  });
});
