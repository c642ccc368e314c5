import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteParameterCommand,
  GetParameterCommand,
  ParameterNotFound,
  PutParameterCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectionSecretsFor,
  localConnectionSecrets,
  ssmConnectionSecrets,
} from '#functions/adapters/connection-secrets';

/**
 * Where connection secrets live (functions/adapters/connection-secrets.ts): SSM SecureStrings in
 * the cloud (SSM has no local engine: aws-sdk-client-mock stands in and records the calls), a
 * 0600 file or memory locally, and no silent fallback when nothing is configured.
 */

const ssmMock = mockClient(SSMClient);
afterEach(() => ssmMock.reset());
afterAll(() => ssmMock.restore());

const notFound = () => new ParameterNotFound({ message: 'not found', $metadata: {} });
const client = () => new SSMClient({ region: 'us-east-1' });

describe('SSM secrets', () => {
  it('puts one SecureString per connection under the prefix, with the KMS key when set', async () => {
    ssmMock.on(PutParameterCommand).resolves({});
    await ssmConnectionSecrets('/ops/secrets', 'key-1', client()).put('t1', 'c1', { bot_token: 'x' });
    await ssmConnectionSecrets('/ops/secrets/', undefined, client()).put('t1', 'c2', { a: 'b' });
    expect(ssmMock.commandCalls(PutParameterCommand).map((c) => c.args[0].input)).toEqual([
      {
        Name: '/ops/secrets/t1/c1',
        Value: '{"bot_token":"x"}',
        Type: 'SecureString',
        KeyId: 'key-1',
        Overwrite: true,
      },
      { Name: '/ops/secrets/t1/c2', Value: '{"a":"b"}', Type: 'SecureString', Overwrite: true },
    ]);
  });

  it('reads and decrypts the secret; a missing parameter or value is no secret', async () => {
    const secrets = ssmConnectionSecrets('/p', undefined, client());
    ssmMock
      .on(GetParameterCommand)
      .resolvesOnce({ Parameter: { Value: '{"signing_secret":"s"}' } })
      .resolvesOnce({ Parameter: {} })
      .resolvesOnce({})
      .rejectsOnce(notFound());
    expect(await secrets.read('t', 'c')).toEqual({ signing_secret: 's' });
    expect(await secrets.read('t', 'c')).toBeUndefined();
    expect(await secrets.read('t', 'c')).toBeUndefined();
    expect(await secrets.read('t', 'c')).toBeUndefined();
    expect(ssmMock.commandCalls(GetParameterCommand)[0]!.args[0].input).toEqual({
      Name: '/p/t/c',
      WithDecryption: true,
    });
  });

  it('any other SSM error on a read reaches the caller (a retry, never "not connected")', async () => {
    const throttled = Object.assign(new Error('rate exceeded'), { name: 'ThrottlingException' });
    ssmMock.on(GetParameterCommand).rejects(throttled);
    await expect(ssmConnectionSecrets('/p', undefined, client()).read('t', 'c')).rejects.toBe(throttled);
  });

  it('deletes the parameter; deleting one that is gone is fine, other errors are not', async () => {
    const secrets = ssmConnectionSecrets('/p/', undefined, client());
    const denied = Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    ssmMock.on(DeleteParameterCommand).resolvesOnce({}).rejectsOnce(notFound()).rejectsOnce(denied);
    await secrets.delete('t', 'c');
    await secrets.delete('t', 'c');
    await expect(secrets.delete('t', 'c')).rejects.toBe(denied);
    expect(ssmMock.commandCalls(DeleteParameterCommand)[0]!.args[0].input).toEqual({ Name: '/p/t/c' });
  });
});

describe('file secrets', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ops-secrets-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps each change in a file only its owner can read, in a directory only its owner can open', async () => {
    const path = join(dir, 'nested', 'secrets.json');
    const secrets = localConnectionSecrets(path);
    expect(await secrets.read('t', 'c')).toBeUndefined();
    await secrets.put('t', 'c', { bot_token: 'x' });
    await secrets.put('t', 'd', { bot_token: 'y' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      't/c': { bot_token: 'x' },
      't/d': { bot_token: 'y' },
    });
    // No temporary file is left beside it.
    expect(await readdir(join(dir, 'nested'))).toEqual(['secrets.json']);

    // Another process (a fresh store over the same file) reads what was written.
    const again = localConnectionSecrets(path);
    expect(await again.read('t', 'c')).toEqual({ bot_token: 'x' });
    await again.delete('t', 'c');
    expect(await secrets.read('t', 'c')).toBeUndefined();
    expect(await secrets.read('t', 'd')).toEqual({ bot_token: 'y' });
  });

  it('a file that cannot be read as secrets is an error, not an empty store', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{not json');
    await expect(localConnectionSecrets(path).read('t', 'c')).rejects.toThrow();
    await expect(localConnectionSecrets(dir).read('t', 'c')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('memory secrets', () => {
  it('are shared by every store of the process, and only there', async () => {
    await localConnectionSecrets(undefined).put('tm', 'c', { k: 'v' });
    expect(await localConnectionSecrets(undefined).read('tm', 'c')).toEqual({ k: 'v' });
    expect(await localConnectionSecrets(undefined).read('tm', 'other')).toBeUndefined();
    await localConnectionSecrets(undefined).delete('tm', 'c');
    expect(await localConnectionSecrets(undefined).read('tm', 'c')).toBeUndefined();
  });
});

describe('connectionSecretsFor', () => {
  it('chooses SSM, a file or memory by the setting', async () => {
    ssmMock.on(GetParameterCommand).resolves({ Parameter: { Value: '{"from":"ssm"}' } });
    const fromSsm = connectionSecretsFor({ store: 'ssm:/ops/x', kmsKeyId: undefined });
    expect(await fromSsm.read('t', 'c')).toEqual({ from: 'ssm' });
    expect(ssmMock.commandCalls(GetParameterCommand)[0]!.args[0].input.Name).toBe('/ops/x/t/c');

    const dir = await mkdtemp(join(tmpdir(), 'ops-secrets-for-'));
    try {
      const path = join(dir, 's.json');
      await connectionSecretsFor({ store: `file:${path}`, kmsKeyId: undefined }).put('t', 'c', {
        from: 'file',
      });
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ 't/c': { from: 'file' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    await connectionSecretsFor({ store: 'memory', kmsKeyId: undefined }).put('t-for', 'c', {
      from: 'memory',
    });
    expect(await localConnectionSecrets(undefined).read('t-for', 'c')).toEqual({ from: 'memory' });
  });

  it('with no storage configured every use fails loudly', async () => {
    for (const store of [undefined, '', 'vault:x']) {
      const secrets = connectionSecretsFor({ store, kmsKeyId: undefined });
      for (const call of [
        () => secrets.read('t', 'c'),
        () => secrets.put('t', 'c', {}),
        () => secrets.delete('t', 'c'),
      ])
        await expect(call()).rejects.toThrow(
          'OPS_CONNECTION_SECRETS is not set: no storage for connection secrets',
        );
    }
  });
});
