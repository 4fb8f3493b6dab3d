import { createUIMessageStreamResponse, type UIMessageChunk } from 'ai';
import { stopTurn, trackTurn, untrackTurn } from '../agent/active-turns';
import { ModelUnavailableError, resolveModel } from '../agent/models';
import { runTurn } from '../agent/run-turn';
import type { QuantaMessage } from '../agent/types';
import { prices } from '../agent/usage';
import { maxSteps } from '../config';
import type { Db } from '../db/client';
import type { SessionRow } from '../db/schema';
import * as queries from '../db/sessions';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { newId } from '../ids';
import type { ToolSet } from '../tools/tool-set';
import { authorize, writer } from './service';

const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_TEXT = 32_000;
/** A turn mark older than this is from a server that died mid-turn (turns are far shorter). */
const STALE_TURN_MS = 15 * 60_000;
const TITLE_LENGTH = 60;

const messageSchema = {
  type: 'object',
  properties: {
    message: {
      type: 'object',
      properties: {
        // The client's own id and metadata are accepted and ignored: the server names messages.
        id: { type: 'string', maxLength: 200 },
        role: { const: 'user' },
        metadata: {},
        parts: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'object',
            properties: {
              type: { const: 'text' },
              text: { type: 'string', pattern: '\\S', maxLength: MAX_TEXT },
            },
            required: ['type', 'text'],
          },
        },
      },
      required: ['role', 'parts'],
      additionalProperties: false,
    },
  },
  required: ['message'],
  additionalProperties: false,
};

type Body = { message: { parts: { text: string }[] } };

/**
 * `POST /api/sessions/:id/messages`: stores the owner's new message, runs a turn and answers
 * with its UI message stream. The turn runs to its end even if the client goes away.
 */
export async function postMessage(
  db: Db,
  request: Request,
  id: string,
  toolSet: ToolSet,
): Promise<Response> {
  const identity = writer(request);
  const session = await authorize(db, id, identity.ownerId, 'write');
  const body = await readJson<Body>(request, messageSchema, MAX_MESSAGE_BYTES);
  const { info, model } = await resolveModel(session.model).catch((error: unknown) => {
    if (error instanceof ModelUnavailableError) {
      throw new HttpError(409, 'model_unavailable', error.message);
    }
    throw error;
  });
  const turnId = newId();
  if (!(await queries.claimTurn(db, id, turnId, STALE_TURN_MS))) {
    throw new HttpError(409, 'turn_active', 'A turn is already running here: wait or stop it.');
  }
  const signal = trackTurn(id, turnId);
  // Called when the turn ends and again, as a safety net, when the stream is drained: once.
  let released: Promise<void> | undefined;
  const release = () => {
    released ??= (async () => {
      untrackTurn(id, turnId);
      await queries.releaseTurn(db, id, turnId);
    })();
    return released;
  };
  try {
    const parts = body.message.parts.map(({ text }) => ({ type: 'text' as const, text }));
    await queries.appendMessages(db, id, [{ role: 'user', parts }]);
    const history = (await queries.listMessages(db, id)).map(
      ({ id, role, parts, metadata }) => ({ id, role, parts, metadata }) as QuantaMessage,
    );
    if (history.length === 1) await nameAfterFirstMessage(db, session, parts[0]?.text ?? '');
    const save = (message: QuantaMessage) =>
      queries.saveMessage(db, id, {
        id: message.id,
        role: 'assistant',
        parts: message.parts,
        metadata: message.metadata ?? null,
      });
    const stream = await runTurn({
      model,
      modelId: info.id,
      price: prices()[info.id],
      history,
      messageId: newId(),
      toolSet,
      sessionId: id,
      agentId: id,
      maxSteps: maxSteps(),
      signal,
      onStep: save,
      // Released before the stream closes, so a client that sends again at once is not refused.
      onEnd: async (message) => {
        await save(message);
        await release();
      },
    });
    const [toClient, toServer] = stream.tee();
    void drain(toServer).finally(release);
    return createUIMessageStreamResponse({ stream: toClient });
  } catch (error) {
    await release();
    throw error;
  }
}

/** `POST /api/sessions/:id/stop`: ends the running turn; what it produced is kept. */
export async function stop(db: Db, request: Request, id: string): Promise<{ stopped: boolean }> {
  const identity = writer(request);
  await authorize(db, id, identity.ownerId, 'write');
  return { stopped: stopTurn(id) };
}

// Reading the server's copy to the end is what runs the turn, whoever else is listening.
async function drain(stream: ReadableStream<UIMessageChunk>): Promise<void> {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done) {}
  } catch (error) {
    console.error('A turn ended abnormally:', error);
  }
}

/** A chat nobody has named takes its title from the first words it is asked. */
async function nameAfterFirstMessage(db: Db, session: SessionRow, text: string): Promise<void> {
  if (session.title !== queries.DEFAULT_TITLE) return;
  const line = text.trim().split('\n')[0] ?? '';
  const title = line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
  await queries.updateSession(db, session.id, { title });
}
