import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  DeleteParameterCommand,
  GetParameterCommand,
  ParameterNotFound,
  PutParameterCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
import type { ConnectionSecret, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { ConnectionSecretSettings } from '#functions/config';
import { clientOptions, made } from './client-options';

/**
 * The private storage of connection secrets (the `ConnectionSecrets` port), chosen by
 * OPS_CONNECTION_SECRETS: `ssm:<path prefix>` in the cloud, `file:<path>` or `memory` locally.
 */

/** One SecureString per connection, `<prefix><tenant_id>/<connection_id>`, under the service's KMS key. */
export function ssmConnectionSecrets(
  prefix: string,
  kmsKeyId: string | undefined,
  ssm: SSMClient,
): ConnectionSecrets {
  const name = (tenantId: string, connectionId: string) =>
    `${prefix.replace(/\/?$/, '/')}${tenantId}/${connectionId}`;
  return {
    async put(tenantId, connectionId, secret) {
      await ssm.send(
        new PutParameterCommand({
          Name: name(tenantId, connectionId),
          Value: JSON.stringify(secret),
          Type: 'SecureString',
          ...(kmsKeyId ? { KeyId: kmsKeyId } : {}),
          Overwrite: true,
        }),
      );
    },
    async read(tenantId, connectionId) {
      try {
        const out = await ssm.send(
          new GetParameterCommand({ Name: name(tenantId, connectionId), WithDecryption: true }),
        );
        return out.Parameter?.Value ? (JSON.parse(out.Parameter.Value) as ConnectionSecret) : undefined;
      } catch (err) {
        if (err instanceof ParameterNotFound) return undefined;
        throw err;
      }
    },
    async delete(tenantId, connectionId) {
      try {
        await ssm.send(new DeleteParameterCommand({ Name: name(tenantId, connectionId) }));
      } catch (err) {
        if (!(err instanceof ParameterNotFound)) throw err;
      }
    },
  };
}

type Entries = Record<string, ConnectionSecret>;

/**
 * The local runtime's store: entries in one JSON file readable by its owner only (0600), each
 * change written to a temporary file and renamed over it; or, without a path, a map in memory
 * that every handler and worker of the process shares.
 */
export function localConnectionSecrets(path: string | undefined): ConnectionSecrets {
  const load = async (): Promise<Entries> => {
    if (!path) return memory;
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Entries;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
  };
  const save = async (entries: Entries) => {
    if (!path) return;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(entries), { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  };
  const key = (tenantId: string, connectionId: string) => `${tenantId}/${connectionId}`;
  return {
    async put(tenantId, connectionId, secret) {
      const entries = await load();
      entries[key(tenantId, connectionId)] = secret;
      await save(entries);
    },
    async read(tenantId, connectionId) {
      return (await load())[key(tenantId, connectionId)];
    },
    async delete(tenantId, connectionId) {
      const entries = await load();
      delete entries[key(tenantId, connectionId)];
      await save(entries);
    },
  };
}

const memory: Entries = {};

export function connectionSecretsFor(settings: ConnectionSecretSettings): ConnectionSecrets {
  const { store } = settings;
  if (store?.startsWith('ssm:'))
    return ssmConnectionSecrets(
      store.slice(4),
      settings.kmsKeyId,
      made(new SSMClient(clientOptions(settings.client))),
    );
  if (store?.startsWith('file:')) return localConnectionSecrets(store.slice(5));
  if (store === 'memory') return localConnectionSecrets(undefined);
  // No silent fallback: a function without storage for secrets must fail, not forget them.
  const missing = async (): Promise<never> => {
    throw new Error('OPS_CONNECTION_SECRETS is not set: no storage for connection secrets');
  };
  return { put: missing, read: missing, delete: missing };
}
