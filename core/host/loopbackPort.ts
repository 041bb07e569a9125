/**
 * A free port on 127.0.0.1 for the core's direct channel (pageLane.ts), chosen by the shell before
 * the core is up: the page's CSP names it, and a restarted core listens on it again. Its own module
 * (Node's `net` only), so that the shell does not load the lane's WebSocket server to choose it.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';

export const reserveLoopbackPort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
};
