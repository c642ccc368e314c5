import { once } from 'node:events';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';

/**
 * Servers on loopback for the senders' connected tests (tests/connected/webhook-sender.test.ts,
 * webhook-event-sender.test.ts), closed with their open sockets by `closeAll` (after each test).
 */
export function loopbackServers() {
  const cleanups: (() => Promise<void>)[] = [];

  /** Listens on a free port; `closeAll` closes the server and its open sockets. */
  async function listen(server: Server, host = '127.0.0.1'): Promise<{ port: number; sockets: Set<Socket> }> {
    const sockets = new Set<Socket>();
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.listen(0, host);
    await once(server, 'listening');
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { port: (server.address() as AddressInfo).port, sockets };
  }

  /** A TCP server on every local address (IPv4 and IPv6) that counts connections and answers nothing. */
  async function silentServer(onSocket: (s: Socket) => void = () => undefined) {
    let connections = 0;
    const server = createTcpServer((s) => {
      connections++;
      s.on('error', () => undefined);
      onSocket(s);
    });
    const { port } = await listen(server, '::');
    return { port, connections: () => connections };
  }

  /** Closes every server and its sockets; resolves once none listens any more. */
  const closeAll = async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
  };
  return { listen, silentServer, closeAll };
}
