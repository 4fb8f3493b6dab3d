import 'server-only';
import type { Db } from '../db/client';
import { subscribe } from '../events/session-events';
import { HttpError } from '../http/errors';
import { acquireLease } from '../limits';
import type { SessionEvent } from '../protocol';
import { authorize, requester } from './access';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** How long a browser waits before it reconnects a stream that broke. */
const RETRY_MS = 3_000;

type StreamOptions = {
  heartbeatMs?: number;
  /** Asked at each heartbeat; when it answers false the stream ends. */
  stillAllowed?: () => Promise<boolean>;
  /** An event after which this viewer may no longer watch: the stream ends without it. */
  endsOn?: (event: SessionEvent) => boolean;
  /** Called once when the stream has ended, however it ended. */
  onEnd?: () => void;
};

// Viewers without an identity (API clients reading a public session) share one allowance.
const ANONYMOUS = 'anonymous';

/**
 * `GET /api/sessions/:id/events`: the session's live events as server-sent events, for whoever
 * may read the session (its owner; anyone when it is public; for anyone else it does not exist).
 */
export async function openEvents(
  db: Db,
  request: Request,
  id: string,
  options: Pick<StreamOptions, 'heartbeatMs'> = {},
): Promise<Response> {
  const viewer = (await requester(db, request))?.ownerId;
  const session = await authorize(db, id, viewer, 'read');
  const lease = await acquireLease('eventStreams', viewer ?? ANONYMOUS);
  // A session may be made private or deleted while someone watches: their stream then ends,
  // and the browser's reconnection is refused like any read.
  const stillAllowed = () =>
    authorize(db, session.id, viewer, 'read').then(
      () => true,
      (error: unknown) => {
        if (error instanceof HttpError) return false;
        console.error('Could not check a session event stream:', error);
        return true;
      },
    );
  // A session deleted, or made private while someone else watches, ends their stream at once.
  const endsOn = (event: SessionEvent) =>
    event.type === 'deleted' ||
    (event.type === 'visibility' && event.visibility === 'private' && viewer !== session.ownerId);
  const stream = sessionEventStream(session.id, request.signal, {
    ...options,
    stillAllowed,
    endsOn,
    onEnd: () => void lease.release(),
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}

/**
 * The events of `sessionId` as a server-sent event stream: `retry:` first, then one `data:`
 * line of JSON per event and a `: ping` comment every heartbeat. It stops listening when
 * `signal` aborts, when the reader cancels it, or when `stillAllowed` says no.
 */
export function sessionEventStream(
  sessionId: string,
  signal: AbortSignal,
  { heartbeatMs = HEARTBEAT_MS, stillAllowed, endsOn, onEnd }: StreamOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finish: (closeStream: boolean) => void = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let finished = false;
      const send = (text: string) => {
        if (finished) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          finish(false); // the stream is gone already
        }
      };
      const unsubscribe = subscribe(sessionId, (event: SessionEvent) => {
        if (endsOn?.(event)) finish(true);
        else send(`data: ${JSON.stringify(event)}\n\n`);
      });
      const check = () =>
        void stillAllowed?.().then((allowed) => {
          if (!allowed) finish(true);
        });
      const heartbeat = setInterval(() => {
        send(': ping\n\n');
        check();
      }, heartbeatMs);
      // A heartbeat alone does not keep the process from exiting.
      heartbeat.unref?.();
      const onAbort = () => finish(true);
      finish = (closeStream) => {
        if (finished) return;
        finished = true;
        clearInterval(heartbeat);
        unsubscribe();
        onEnd?.();
        signal.removeEventListener('abort', onAbort);
        if (!closeStream) return;
        try {
          controller.close();
        } catch {
          // Closed or cancelled already.
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      send(`retry: ${RETRY_MS}\n\n`);
      // A change of access between the caller's check and this subscription would be missed:
      // ask once more now that every later change will be heard.
      check();
      if (signal.aborted) onAbort();
    },
    cancel() {
      finish(false);
    },
  });
}
