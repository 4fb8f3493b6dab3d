import { createConnection, createServer, type Socket } from 'node:net';

// PostgreSQL's wire protocol: after the start-up message (no type byte), every message a client
// sends is a type byte and a 4-byte length that counts itself. A simple query ('Q') is one round
// trip; an extended query (Parse, Bind, Execute...) is one when its Sync ('S') goes out.
const SSL_REQUEST = 80877103;

/**
 * A TCP proxy in front of a PostgreSQL server that records every round trip its clients make,
 * as the SQL text that began it, and counts the bytes it answers: what a driver really sends
 * and gets, whichever library sits above it.
 */
export async function countRoundTrips(target: { host: string; port: number }) {
  const trips: string[] = [];
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    upstream.on('data', (data: Buffer) => {
      received += data.length;
    });
    let buffered = Buffer.alloc(0);
    let startingUp = true;
    let pending: string | undefined;
    client.on('data', (data: Buffer) => {
      upstream.write(data);
      buffered = Buffer.concat([buffered, data]);
      for (;;) {
        if (startingUp) {
          if (buffered.length < 8) return;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) return;
          startingUp = buffered.readInt32BE(4) === SSL_REQUEST;
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) return;
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) return;
        const type = String.fromCharCode(buffered[0] as number);
        const body = buffered.subarray(5, length + 1);
        if (type === 'Q') trips.push(cString(body, 0));
        if (type === 'P') pending ??= cString(body, body.indexOf(0) + 1);
        if (type === 'S') {
          trips.push(pending ?? '');
          pending = undefined;
        }
        buffered = buffered.subarray(length + 1);
      }
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No proxy port');
  return {
    port: address.port,
    /** Every round trip so far, oldest first, as the SQL it sent. */
    trips: () => [...trips],
    /** The bytes the server has sent its clients so far. */
    received: () => received,
    reset: () => {
      trips.length = 0;
      received = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function cString(buffer: Buffer, start: number): string {
  return buffer.toString('utf8', start, buffer.indexOf(0, start));
}
