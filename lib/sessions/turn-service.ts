import 'server-only';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type ContextPlan,
  type ContextSummary,
  estimateTokens,
  type PlacedMessage,
  planContext,
  summarise,
} from '../agent/compaction';
import type { Intent } from '../agent/demo-intents';
import { ModelUnavailableError, resolveModel } from '../agent/models';
import { runTurn, type Summary, SYSTEM } from '../agent/run-turn';
import { prices } from '../agent/usage';
import {
  contextTokens,
  maxAnswerBytes,
  maxSteps,
  maxToolInputBytes,
  maxWidgetDataBytes,
  redisUrl,
} from '../config';
import type { Db } from '../db/client';
import { insertMessage, listMessages, saveTurnAnswer, truncateMessages } from '../db/messages';
import type { HeldTurn, MessageRow, SessionRow } from '../db/schema';
import { unlessSessionGone } from '../db/session-gone';
import { getSession, storeContextSummary } from '../db/sessions';
import { deleteEndedTurnLogs } from '../db/turn-log';
import { claimTurn, claimTurnForPrompt, type PromptClaimed, releaseTurn } from '../db/turns';
import { publish } from '../events/session-events';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { ID_PATTERN, newId } from '../ids';
import { acquireLease, enforceRate } from '../limits';
import {
  type PostMessageBody,
  postMessageSchema,
  type QuantaMessage,
  type StopResponse,
} from '../protocol';
import type { ToolSet } from '../tools/tool-set';
import { trackTurn, untrackTurn } from '../turns/running-turns';
import { feedKey, followKey, stopKey, turnBus } from '../turns/turn-bus';
import {
  type FinalSave,
  LOG_BATCH_MS,
  logToDatabase,
  type TurnRecorder,
  turnRecorder,
} from '../turns/turn-recorder';
import { turnResponse } from '../turns/turn-response';
import { authorize, writer } from './access';
import { closeFromLog, closeIfDead } from './dead-turns';
import { endRunningTurn } from './end-turn';
import { historyCache } from './history-cache';
import { toolServices } from './tool-services';
import { keepTurnMarked } from './turn-mark';
import { toMessage } from './views';

const MAX_MESSAGE_BYTES = 64 * 1024;
const TITLE_LENGTH = 60;

type UserMessage = NonNullable<PostMessageBody['message']>;

/** What a turn starts from, checked before anything is claimed. */
type Start = { trigger: 'submit' | 'edit'; message: UserMessage } | { trigger: 'regenerate' };

function start(body: PostMessageBody): Start {
  const trigger = body.trigger ?? 'submit';
  if (trigger === 'regenerate') {
    if (body.message) throw new HttpError(400, 'invalid_input', 'regenerate takes no message');
    return { trigger };
  }
  if (!body.message) throw new HttpError(400, 'invalid_input', `${trigger} needs a message`);
  if (trigger === 'edit' && body.message.id === undefined) {
    throw new HttpError(400, 'invalid_input', 'edit needs message.id, the message to replace');
  }
  return { trigger, message: body.message };
}

/** How long an ended turn's log is kept for readers on other instances still catching up. */
const LOG_KEPT_MS = 30_000;

/** A turn that has started: its stream for the client, and its end, for the host to wait for. */
export type StartedTurn = { response: Response; finished: Promise<void> };

/**
 * `POST /api/sessions/:id/messages`: stores the owner's new message, runs a turn with `toolSet`
 * (on the demo model, `demoIntents` ask for its tools) and answers with its UI message stream.
 * The turn runs to its end whether or not the client stays: `finished` says when.
 *
 * Two round trips to the database before a new prompt's model is called: who asks, and the
 * claim, which reads the session, names it, reads the history and stores the prompt. Then one
 * per save.
 */
export async function postMessage(
  db: Db,
  request: Request,
  id: string,
  toolSet: ToolSet,
  demoIntents: readonly Intent[],
): Promise<StartedTurn> {
  const identity = await writer(db, request);
  const begin = start(
    await readJson<PostMessageBody>(request, postMessageSchema, MAX_MESSAGE_BYTES),
  );
  await enforceRate('turnsPerMinute', identity.ownerId);
  const lease = await acquireLease('concurrentTurns', identity.ownerId);
  const turnId = newId();
  // The slot goes back whatever stops the claim, a database error included: a lease renews
  // itself, so one never released would hold the slot for good.
  const claimed = await claim(db, id, identity.ownerId, turnId, begin).catch(async (error) => {
    await lease.release();
    throw error;
  });
  // Stopped by the owner (here, or from another instance over the bus), or given up when
  // another turn took the session over (see turn-mark).
  const controller = new AbortController();
  const stop = () => controller.abort();
  let recorder: TurnRecorder | undefined;
  // A reader on another instance asks for the turn's log live (see followTurn), perhaps before
  // there is a recorder: it is told once there is one.
  let followed = false;
  const stopHearing = turnBus().subscribe(stopKey(turnId), stop);
  const stopHearingFollowers = turnBus().subscribe(followKey(turnId), () => {
    followed = true;
    recorder?.followed();
  });
  const stopRenewing = keepTurnMarked(db, id, turnId, stop);
  const turn: HeldTurn = { sessionId: id, turnId };
  // Once the turn is stored: the session is freed before its readers' streams end, so a client
  // that sends again at once is not refused. A final message the database would not take is
  // stored from the turn's log as a dead turn's is, now or, should that fail too, by whoever
  // reads the session once the mark is stale; the log is kept for its readers as any other.
  const release = async (saved?: FinalSave) => {
    stopRenewing();
    stopHearing();
    stopHearingFollowers();
    try {
      await Promise.all([
        saved === 'failed' ? closeFromLog(db, turn) : releaseTurn(db, id, turnId),
        lease.release(),
      ]);
    } finally {
      if (recorder) {
        // After the release, so a viewer that reloads the session on it finds the turn ended.
        publish(id, { type: 'turn', status: 'ended' });
        recorder.feed.end();
        untrackTurn(id, turnId);
        turnBus().publish(feedKey(turnId), { type: 'end' });
        if (recorder.logged()) {
          setTimeout(
            () =>
              void deleteEndedTurnLogs(db, id).catch((error: unknown) =>
                console.error(`Removing the logs of session ${id} failed:`, error),
              ),
            LOG_KEPT_MS,
          ).unref();
        }
      }
    }
  };
  try {
    const { session } = claimed;
    const { info, model } = await modelFor(session, demoIntents);
    const { history, summary, answerPosition } =
      claimed.kind === 'prompted'
        ? await promptedHistory(db, claimed)
        : await prepareHistory(db, session, claimed.begin);
    const budget = contextTokens() - estimateTokens([SYSTEM, toolSet.modelTools]);
    const context = planContext({ history, summary, budget });
    const messageId = newId();
    // A session deleted while its turn runs stops the turn; its last writes find no session.
    recorder = turnRecorder({
      writeLog: unlessSessionGone(logToDatabase(db, id, turnId)),
      logBatchMs: LOG_BATCH_MS,
      followedElsewhere: redisUrl() !== undefined,
      // A save refused means the turn no longer holds the session: it was taken for dead (its
      // renewals lost) or the session deleted. It stops, as a lost renewal would stop it.
      save: async (message) => {
        const placed = {
          id: message.id,
          position: answerPosition,
          role: 'assistant' as const,
          parts: message.parts,
          metadata: message.metadata ?? null,
        };
        if (await saveTurnAnswer(db, turn, placed)) return 'stored';
        stop();
        // A turn deleted with its session has no transcript its stream could disagree with.
        return (await getSession(db, id)) ? 'refused' : 'gone';
      },
    });
    if (followed) recorder.followed();
    trackTurn(id, { turnId, controller, feed: recorder.feed });
    // Now that the prompt is stored and the stream route can serve the turn, here and elsewhere.
    publish(id, { type: 'turn', status: 'started' });
    const stream = await runTurn({
      model,
      modelId: info.id,
      price: prices()[info.id],
      history: context.messages,
      summary: turnSummary(db, turn, stop, { context, model, budget }),
      messageId,
      toolSet,
      services: toolServices(db, id),
      sessionId: id,
      agentId: id,
      maxSteps: maxSteps(),
      maxAnswerBytes: maxAnswerBytes(),
      maxToolInputBytes: maxToolInputBytes(),
      maxWidgetDataBytes: maxWidgetDataBytes(),
      signal: controller.signal,
      onStep: recorder.onStep,
      onEnd: recorder.onEnd,
    });
    const finished = recorder.record(stream).then(release, async (error: unknown) => {
      await release();
      throw error;
    });
    return {
      response: turnResponse(recorder.feed.read()),
      finished,
    };
  } catch (error) {
    try {
      // A prompt whose turn never started is not kept: the client's retry sends it again.
      if (!recorder && claimed.kind === 'prompted') {
        await truncateMessages(db, id, claimed.position);
      }
    } finally {
      await release();
    }
    throw error;
  }
}

/**
 * The summary a turn's model gets of the earlier messages: the kept one, or one it writes and
 * stores first when they no longer fit (see lib/agent/compaction).
 */
function turnSummary(
  db: Db,
  turn: HeldTurn,
  stop: () => void,
  { context, model, budget }: { context: ContextPlan; model: LanguageModelV3; budget: number },
): Summary | undefined {
  if (context.kind === 'as-is') {
    return context.summary ? { kind: 'kept', text: context.summary.text } : undefined;
  }
  return {
    kind: 'new',
    write: async (signal) => {
      const text = await summarise({
        model,
        previous: context.previous?.text,
        older: context.older,
        budget,
        signal,
      });
      const summary = { text, through: context.through };
      // Refused when the turn no longer holds the session: it stops, as a refused save stops it.
      if (!(await storeContextSummary(db, turn, summary))) {
        stop();
        throw new Error('The turn no longer holds the session.');
      }
      return text;
    },
  };
}

/**
 * A claimed session: for a new prompt with its history read and the prompt stored in the same
 * statement; for an edit or a regenerate, whose history is prepared next.
 */
type Claimed =
  | ({ kind: 'prompted'; asked: Prompt } & PromptClaimed)
  | { kind: 'claimed'; session: SessionRow; begin: Rewrite };

/** A turn that rewrites the end of the transcript: an edit or a regenerate. */
type Rewrite = Exclude<Start, { trigger: 'submit' }>;

/**
 * Claims the session for `turnId`, or says why not: it is not the owner's to write (404 or 403),
 * or a turn runs on it (409). A turn whose server died is closed with what it wrote first.
 */
async function claim(
  db: Db,
  id: string,
  ownerId: string,
  turnId: string,
  begin: Start,
): Promise<Claimed> {
  const request = { sessionId: id, ownerId, turnId, title: titleFor(begin) };
  const attempt = async (): Promise<Claimed | undefined> => {
    if (begin.trigger === 'submit') {
      const asked = promptOf(begin.message);
      const prompted = await claimTurnForPrompt(
        db,
        request,
        asked,
        historyCache(db).heldRevision(id),
      );
      return prompted && { kind: 'prompted', asked, ...prompted };
    }
    const session = await claimTurn(db, request);
    return session && { kind: 'claimed', session, begin };
  };
  const claimed = await attempt();
  if (claimed) return claimed;
  const session = await authorize(db, id, ownerId, 'write');
  // Unmarked by now: the turn that held it ended between the claim and this read.
  const free = session.activeTurnId === null || (await closeIfDead(db, session));
  const reclaimed = free ? await attempt() : undefined;
  if (reclaimed) return reclaimed;
  throw new HttpError(409, 'turn_active', 'A turn is already running here: wait or stop it.');
}

/** The prompt as stored: under the client's id when it is a valid one. */
type Prompt = { id: string; parts: QuantaMessage['parts'] };

function promptOf(message: UserMessage): Prompt {
  return {
    id: message.id !== undefined && ID_PATTERN.test(message.id) ? message.id : newId(),
    parts: message.parts.map(({ text }) => ({ type: 'text' as const, text })),
  };
}

async function modelFor(session: SessionRow, demoIntents: readonly Intent[]) {
  try {
    return await resolveModel(session.model, { demoIntents });
  } catch (error) {
    if (error instanceof ModelUnavailableError) {
      throw new HttpError(409, 'model_unavailable', error.message);
    }
    throw error;
  }
}

/** What a turn's model gets of the transcript, and where its answer goes. */
type Prepared = {
  history: PlacedMessage[];
  summary: ContextSummary | null;
  answerPosition: number;
};

/** The history of `kept`, the stored messages the turn answers (the summary's still true). */
function preparedFrom(summary: ContextSummary | null, kept: MessageRow[]): Prepared {
  const answerPosition = (kept.at(-1)?.position ?? -1) + 1;
  return {
    history: kept.map((row) => ({ position: row.position, message: toMessage(row) })),
    // A truncation drops the summary of any message it deleted (see truncateMessages).
    summary: summary && summary.through < answerPosition ? summary : null,
    answerPosition,
  };
}

/**
 * A new prompt's history: the instance's copy brought up to date with what its claim read (or,
 * when that copy held deleted messages or lacks some, read again whole), with the prompt (stored
 * anew if its id was taken).
 */
async function promptedHistory(db: Db, claimed: Claimed & { kind: 'prompted' }): Promise<Prepared> {
  const { session, changed, historyCount, asked, position } = claimed;
  const from = session.contextSummary?.through ?? 0;
  const cache = historyCache(db);
  const history =
    cache.update(session.id, { from, changed, count: historyCount }) ??
    (await readHistory(db, session.id, { from, before: position }));
  const prompt = claimed.prompt ?? (await storePrompt(db, session.id, { ...asked, position }));
  return preparedFrom(session.contextSummary, [...history, prompt]);
}

/** The session's stored messages from `from` up to the prompt at `before`, kept in the cache. */
async function readHistory(
  db: Db,
  sessionId: string,
  { from, before }: { from: number; before: number },
): Promise<MessageRow[]> {
  const rows = (await listMessages(db, sessionId, from)).filter((row) => row.position < before);
  historyCache(db).keep(sessionId, rows);
  return rows;
}

/**
 * Stores what an edit or a regenerate answers — the edited user message, or nothing — and works
 * out the history the model gets and where the answer goes, from one read of the stored messages
 * (a regenerate needs none before the context summary).
 */
async function prepareHistory(db: Db, session: SessionRow, begin: Rewrite): Promise<Prepared> {
  const summary = session.contextSummary;
  const stored = await listMessages(
    db,
    session.id,
    begin.trigger === 'edit' ? 0 : (summary?.through ?? 0),
  );
  const after = (kept: MessageRow[]) => preparedFrom(summary, kept);
  if (begin.trigger === 'regenerate') {
    const lastUser = stored.findLast((message) => message.role === 'user');
    if (!lastUser)
      throw new HttpError(400, 'nothing_to_regenerate', 'There is no answer to write again.');
    await truncateMessages(db, session.id, lastUser.position + 1);
    return after(stored.filter((message) => message.position <= lastUser.position));
  }
  const id = begin.message.id;
  const edited = stored.find((message) => message.id === id && message.role === 'user');
  if (!edited)
    throw new HttpError(404, 'message_not_found', 'No message of yours here has that id.');
  await truncateMessages(db, session.id, edited.position);
  const kept = stored.filter((message) => message.position < edited.position);
  const prompt = { ...promptOf(begin.message), position: after(kept).answerPosition };
  return after([...kept, await storePrompt(db, session.id, prompt)]);
}

/** Stores a prompt at its position; an id another message already has gets a new one. */
async function storePrompt(
  db: Db,
  sessionId: string,
  prompt: Prompt & { position: number },
): Promise<MessageRow> {
  const stored = { ...prompt, role: 'user' as const };
  const added =
    (await insertMessage(db, sessionId, stored)) ??
    (await insertMessage(db, sessionId, { ...stored, id: newId() }));
  if (!added) throw new Error('A new message id was taken.');
  return added;
}

/**
 * `POST /api/sessions/:id/stop`: ends the running turn wherever it runs; what it produced is
 * kept. A turn whose server died left a mark no one renews: Stop closes it as interrupted, so
 * the session takes prompts again.
 */
export async function stop(db: Db, request: Request, id: string): Promise<StopResponse> {
  const identity = await writer(db, request);
  const session = await authorize(db, id, identity.ownerId, 'write');
  if (await closeIfDead(db, session)) return { stopped: true };
  return { stopped: endRunningTurn(session) };
}

/** The title a prompt gives a chat nobody has named yet: the first words it is asked. */
function titleFor(begin: Start): string | undefined {
  if (begin.trigger !== 'submit') return undefined;
  const line = begin.message.parts[0]?.text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
