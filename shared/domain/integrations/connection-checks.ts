import type * as core from 'zod/v4/core';
import { parse } from '#shared/api/issues';
import { type FieldError, ValidationError } from '#shared/kernel/errors';
import { adapterByKey } from './adapters/index';
import type { AdapterDeclaration } from './catalog';
import type { ConnectionSecret } from './ports';
import { webhookUrlProblem } from './webhook-target';

/**
 * What a connection must satisfy of its adapter's declaration: the adapter exists, its scopes are
 * supported, its config and secret parse, the URLs the service will call are acceptable targets.
 * Connections check on create and change; diagnostics check a stored connection again.
 */

/** Runs each check and throws one 422 with every field error they found. */
export function checkAll(...checks: (() => void)[]): void {
  const errors: FieldError[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      errors.push(...((err.errors ?? []) as FieldError[]));
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

/** The scopes, each of them supported by the adapter; the 422 names every one that is not. */
export function checkScopes(adapter: AdapterDeclaration, scopes: readonly string[]): string[] {
  const unsupported = scopes.filter((s) => !adapter.scopes.supported.includes(s));
  if (unsupported.length > 0) {
    throw new ValidationError(
      unsupported.map((s) => ({
        path: 'scopes',
        code: 'unsupported_scope',
        message: `${adapter.key} does not support the scope ${s} (supported: ${adapter.scopes.supported.join(', ')})`,
      })),
    );
  }
  return [...new Set(scopes)];
}

/** The config as the adapter declares it, with the URLs the service will call checked as targets. */
export function checkConfig(
  adapter: AdapterDeclaration,
  config: unknown,
  allowLoopback = false,
): Record<string, unknown> {
  const parsed = parse(adapter.config as core.$ZodType<Record<string, unknown>>, config, 'config');
  const errors: FieldError[] = [];
  for (const field of adapter.target_url_fields ?? []) {
    const value = parsed[field];
    const problem = typeof value === 'string' ? webhookUrlProblem(value, allowLoopback) : undefined;
    if (problem) errors.push({ path: `config.${field}`, ...problem });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return parsed;
}

/** The secret as the adapter declares it. Its value is never echoed: the errors name fields only. */
export function checkSecret(adapter: AdapterDeclaration, secret: unknown): ConnectionSecret {
  if (adapter.oauth) {
    throw new ValidationError([
      {
        path: 'secret',
        code: 'not_accepted',
        message: `${adapter.key} gets its tokens by the provider's consent: POST .../integration-connections/{id}/authorize`,
      },
    ]);
  }
  if (!adapter.secret) {
    throw new ValidationError([
      {
        path: 'secret',
        code: 'not_accepted',
        message: `${adapter.key} takes no secret: it sends under the service role`,
      },
    ]);
  }
  return parse(adapter.secret as core.$ZodType<ConnectionSecret>, secret, 'secret');
}

export const adapterOf = (key: string): AdapterDeclaration => {
  const adapter = adapterByKey(key);
  if (!adapter) {
    throw new ValidationError([
      {
        path: 'adapter_key',
        code: 'unknown_adapter',
        message: `no adapter ${key}; GET /adapters lists them`,
      },
    ]);
  }
  return adapter;
};
