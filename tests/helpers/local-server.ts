import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export type LocalServer = {
  origin: string;
  port: number;
  /** The paths asked for in this test, in order. */
  paths: string[];
  /** How many connections were accepted in this test. */
  connections: number;
  /** Settles once this test's request for /stall is in. */
  stalled: Promise<void>;
  /** Settles once the client hung up on this test's request for /stall. */
  hungUp: Promise<void>;
};

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * An HTTP server on 127.0.0.1 for the test file that calls this, answering with `route`; it
 * answers /stall itself: a first chunk of text, then nothing, so that the client has to give up.
 */
export function startLocalServer(
  route: (req: IncomingMessage, res: ServerResponse) => void,
): LocalServer {
  const server = createServer();
  const local: LocalServer = {
    origin: '',
    port: 0,
    paths: [],
    connections: 0,
    stalled: Promise.resolve(),
    hungUp: Promise.resolve(),
  };
  let stalled = signal();
  let hungUp = signal();

  server.on('connection', () => {
    local.connections++;
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    local.paths.push(req.url ?? '');
    if (req.url !== '/stall') return route(req, res);
    req.socket.once('close', hungUp.resolve);
    stalled.resolve();
    res.writeHead(200, { 'content-type': 'text/plain' }).write('a first chunk, then nothing');
  });

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    local.port = (server.address() as AddressInfo).port;
    local.origin = `http://127.0.0.1:${local.port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => {
    local.paths = [];
    local.connections = 0;
    stalled = signal();
    hungUp = signal();
    local.stalled = stalled.promise;
    local.hungUp = hungUp.promise;
  });
  return local;
}
