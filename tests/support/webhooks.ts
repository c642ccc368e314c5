import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '#functions/adapters/dynamo';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { webhookSender } from '#functions/adapters/webhook-sender';
import { armTimer } from '#functions/adapters/timer-arm';
import type { ConnectionSecret, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { DeliveryDeps } from '#shared/domain/webhooks/delivery';
import type { Clock } from '#shared/kernel/ids';

/** A loopback receiver that answers each POST with the next status (and headers) it is given, and keeps what came. */
export async function receiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const answers: { status: number; headers?: Record<string, string> }[] = [];
  let fallback = 200;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const answer = answers.shift() ?? { status: fallback };
      res.writeHead(answer.status, answer.headers).end('a body the service must not keep');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer: (status: number, headers?: Record<string, string>) => answers.push({ status, headers }),
    always: (status: number) => void (fallback = status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Secret storage in memory, whose entries a test can scan. */
export function memorySecrets(): ConnectionSecrets & { entries: Map<string, ConnectionSecret> } {
  const entries = new Map<string, ConnectionSecret>();
  const key = (t: string, id: string) => `${t}/${id}`;
  return {
    entries,
    put: async (t, id, s) => void entries.set(key(t, id), s),
    read: async (t, id) => entries.get(key(t, id)),
    delete: async (t, id) => void entries.delete(key(t, id)),
  };
}

/** The webhook deps of the API and the workers over one table, one secret store and one clock. */
export function webhookDeps(db: Db, clock: Clock, secrets: ConnectionSecrets) {
  const endpoints = webhookEndpointStore(db);
  const messages = webhookMessageStore(db);
  const stored = webhookSecrets(secrets);
  const delivery = (over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
    endpoints,
    messages,
    secrets: stored,
    sender: webhookSender({ allowLoopback: true, timeoutMs: 2000, maxResponseBytes: 1024 }),
    clock,
    leaseSeconds: 60,
    queueCarries: () => true,
    armTimer: (t) => armTimer(db, t),
    probeSeconds: 3,
    random: () => 0.5,
    ...over,
  });
  return {
    api: { endpoints, secrets: stored, clock, allowLoopback: true },
    log: { endpoints, messages, clock },
    fanOut: { endpoints, messages, clock },
    delivery,
  };
}
