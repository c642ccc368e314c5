import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: point a client here instead of at the target. */
  url: string;
  /** The target becomes unreachable: open connections are cut, new ones refused (the port is closed). */
  cut(): Promise<void>;
  /** Reachable again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP pass-through to a real endpoint (the run's DynamoDB Local) that a test can cut and restore:
 * the way to make the table unavailable, and then available again, to code that holds its client
 * for the life of the process as a Lambda function does.
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listenPort = 0;

  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(port), hostname);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', drop);
        s.on('close', drop);
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(listenPort, '127.0.0.1');
    await once(server, 'listening');
    listenPort = (server.address() as { port: number }).port;
  };
  const cut = async () => {
    const closing = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
    for (const s of sockets) s.destroy();
    sockets.clear();
    await closing;
    server = undefined;
  };

  await listen();
  return { url: `http://127.0.0.1:${listenPort}`, cut, restore: listen, close: cut };
}
