import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

/**
 * SSM Parameter Store on loopback for tests: PutParameter, GetParameter and DeleteParameter of
 * the JSON protocol, the three calls the connection-secrets store makes
 * (functions/adapters/connection-secrets.ts), so the real SSM client runs (and its calls are
 * recorded) where no SSM engine exists. Values are kept as given; nothing is encrypted.
 */
export interface SsmStandIn {
  url: string;
  parameters: Map<string, string>;
  close(): Promise<void>;
}

export async function startSsmStandIn(): Promise<SsmStandIn> {
  const parameters = new Map<string, string>();
  const answer = (target: string, input: { Name?: string; Value?: string; Overwrite?: boolean }) => {
    const name = String(input.Name ?? '');
    switch (target) {
      case 'PutParameter':
        if (parameters.has(name) && !input.Overwrite) return [400, { __type: 'ParameterAlreadyExists' }];
        parameters.set(name, String(input.Value ?? ''));
        return [200, { Version: 1, Tier: 'Standard' }];
      case 'GetParameter':
        if (!parameters.has(name)) return [400, { __type: 'ParameterNotFound', message: name }];
        return [
          200,
          { Parameter: { Name: name, Type: 'SecureString', Value: parameters.get(name), Version: 1 } },
        ];
      case 'DeleteParameter':
        if (!parameters.delete(name)) return [400, { __type: 'ParameterNotFound', message: name }];
        return [200, {}];
      default:
        return [400, { __type: 'UnsupportedOperation', message: target }];
    }
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '').replace('AmazonSSM.', '');
    const [status, body] = answer(target, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
    res.writeHead(status as number, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    parameters,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
