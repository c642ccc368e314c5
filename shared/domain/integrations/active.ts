import type { ActiveConnectionReader, ConnectionSecrets, ConnectionStore } from './ports';

/**
 * The reader delivering workers are given: the active connection from the store, and its secret
 * read from private storage only when the worker asks for it (only when it is about to send).
 */
export const activeConnectionReader = (
  store: Pick<ConnectionStore, 'findActive'>,
  secrets: Pick<ConnectionSecrets, 'read'>,
): ActiveConnectionReader => ({
  async findActiveConnection(tenantId, query) {
    const connection = await store.findActive(tenantId, query);
    if (!connection) return undefined;
    return {
      connection,
      secret: async () => (connection.secret_configured ? secrets.read(tenantId, connection.id) : undefined),
    };
  },
});
