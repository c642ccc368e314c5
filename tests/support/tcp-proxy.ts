import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: point a client here instead of at the target. */
  url: string;
  /** The target becomes unreachable: open connections are cut, new ones refused (the port is closed). */
  cut(): Promise<void>;
  /**
   * The target hangs, as a paused process does: open connections stay open and carry nothing
   * more, new ones are accepted and never answered.
   */
  hang(): void;
  /** Reachable again, on the same port (after a cut or a hang). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP pass-through to a real endpoint (the run's DynamoDB Local) that a test can cut, hang and
 * restore: the way to make the table unavailable, and then available again, to code that holds
 * its client for the life of the process as a Lambda function does.
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let listenPort = 0;
  let hung = false;

  const stall = (s: Socket) => {
    s.unpipe();
    s.pause();
  };
  const listen = async () => {
    server = createServer((client) => {
      sockets.add(client);
      client.on('error', () => client.destroy());
      client.on('close', () => sockets.delete(client));
      if (hung) {
        client.pause();
        return;
      }
      const upstream = connect(Number(port), hostname);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
        pairs.delete(pair);
      };
      sockets.add(upstream);
      for (const s of pair) {
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
    pairs.clear();
    await closing;
    server = undefined;
  };
  const hang = () => {
    hung = true;
    for (const [client, upstream] of pairs) {
      stall(client);
      stall(upstream);
    }
  };
  const restore = async () => {
    hung = false;
    // What hung stays lost, as after a real pause the client has long given up on it.
    if (server) await cut();
    await listen();
  };

  await listen();
  return { url: `http://127.0.0.1:${listenPort}`, cut, hang, restore, close: cut };
}
