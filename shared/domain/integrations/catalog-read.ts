import type * as z from 'zod/mini';
import type { AdapterContractRead } from '#shared/api/schemas/responses';
import { NotFoundError } from '#shared/kernel/errors';
import type { Page } from '#shared/kernel/page';
import { ADAPTERS, adapterByKey } from './adapters/index';
import type { AdapterCategory, AdapterDeclaration } from './catalog';
import { CONFIG_SCHEMAS } from './config-schemas.gen';

/** The adapter catalog as the API reads it (docs/api.md section 9.3): list and get, from the declarations. */

type AdapterContract = z.output<typeof AdapterContractRead>;

/** Everything the API says about an adapter, from its one declaration. */
export function adapterContract(a: AdapterDeclaration): AdapterContract {
  return {
    key: a.key,
    name: a.name,
    status: a.status,
    category: a.category,
    direction: a.direction,
    purpose: a.purpose,
    connection_profile_supported: true,
    // Every adapter reaches outside the service: nothing happens without a tenant connection.
    connection_profile_required: true,
    channel: a.channel ?? null,
    // An OAuth 2 adapter needs its token pair too; it comes from the provider's consent.
    auth_profile: { ...a.auth, secret_required: a.secret !== null || a.oauth !== undefined },
    config_example: a.config_example,
    config_schema: CONFIG_SCHEMAS[a.key],
    mapping_example: a.mapping_example,
    payload_schema: a.payload_schema,
    capabilities: [...a.capabilities],
    default_connection_scopes: [...a.scopes.default],
    failure_modes: [...a.failure_modes],
    public_notes: [...a.public_notes],
    required_mapping_keys: [...a.required_mapping_keys],
    supported_connection_scopes: [...a.scopes.supported],
    operation_contracts: a.operations.map((o) => ({ ...o })),
  };
}

/** The whole catalog is one page: it is a handful of declarations, not tenant data. */
export const listAdapters = (category?: AdapterCategory): Page<AdapterContract> => ({
  items: ADAPTERS.filter((a) => !category || a.category === category).map(adapterContract),
  next_cursor: null,
});

export function getAdapter(key: string): AdapterContract {
  const adapter = adapterByKey(key);
  if (!adapter) throw new NotFoundError();
  return adapterContract(adapter);
}
