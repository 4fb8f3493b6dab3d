import { request as httpRequest } from 'node:http';

export type Sent = { method: string; path: string; headers: Record<string, string>; body?: Buffer };
export type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/** Sends exactly these bytes (no URL normalisation: `%2e%2e` and `%ZZ` reach the server). */
export function send(base: URL, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: sent.method,
        path: sent.path,
        headers: { ...sent.headers, ...(sent.body ? { 'content-length': sent.body.length } : {}) },
      },
      (res) => {
        const headers = res.headers;
        // A live stream (a turn, an event stream) is left at its headers.
        if (String(headers['content-type']).startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.end(sent.body);
  });
}
