import type { TenantStore } from '../../shared/domain/ports';

export const tenantExists = (tenants: TenantStore) => async (tenantId: string) =>
  (await tenants.getTenant(tenantId)) !== undefined;
