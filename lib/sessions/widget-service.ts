import 'server-only';
import { isDeepStrictEqual } from 'node:util';
import { maxWidgetDataBytes } from '../config';
import type { Db } from '../db/client';
import * as queries from '../db/messages';
import type { SessionRow } from '../db/schema';
import { getWidgetState, writeWidgetState } from '../db/widget-states';
import { publish } from '../events/session-events';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { type WidgetActionBody, type WidgetState, widgetActionSchema } from '../protocol';
import { validate } from '../schema';
import type { ToolSet } from '../tools/tool-set';
import { findWidgetCall, stateKey } from '../widgets';
import type { WidgetDefinition } from '../widgets/actions';
import { authorize, writer } from './access';
import { answerSoFar } from './answer-so-far';
import { toMessage } from './views';

const MAX_ACTION_BYTES = 64 * 1024;

/**
 * The widget `toolCallId` opened: from the stored message that holds the call (only that message
 * is read, not the whole transcript per click), or from the running turn's answer so far. A step
 * stores its message once all its tools are done, and a widget shows, and takes clicks, as soon
 * as its own call is.
 */
async function widgetCall(db: Db, session: SessionRow, toolCallId: string) {
  const holder = await queries.findToolCallMessage(db, session.id, toolCallId);
  const stored = holder && findWidgetCall([toMessage(holder)], toolCallId);
  if (stored) return stored;
  const answer = await answerSoFar(db, session);
  return answer && findWidgetCall([answer], toolCallId);
}

/**
 * `POST /api/sessions/:id/widgets/:toolCallId/actions`: the human path. The owner's click runs
 * the widget's action on the server — never through the model — and the new data is stored,
 * announced to every viewer, and returned.
 */
export async function runWidgetAction(
  db: Db,
  request: Request,
  sessionId: string,
  toolCallId: string,
  toolSet: ToolSet,
): Promise<WidgetState> {
  const { ownerId } = await writer(db, request);
  // A reader of a public session sees the widget but cannot act: to them there is nothing here.
  const session = await authorize(db, sessionId, ownerId, 'write').catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 403) throw notFound('No such widget here.');
    throw error;
  });
  const body = await readJson<WidgetActionBody>(request, widgetActionSchema, MAX_ACTION_BYTES);

  const call = await widgetCall(db, session, toolCallId);
  if (!call) throw notFound(`No widget was opened by tool call ${toolCallId} here.`);
  const definition = toolSet.widgets.find((widget) => widget.id === call.widget);
  if (!definition) throw notFound(`Unknown widget "${call.widget}".`);
  // Own properties only: an action named `constructor` or `__proto__` is no action at all.
  const action =
    definition.actions && Object.hasOwn(definition.actions, body.action)
      ? definition.actions[body.action]
      : undefined;
  if (!action) throw notFound(`The ${definition.id} widget has no action "${body.action}".`);
  const args = body.args ?? {};
  const checked = validate(action.parameters, args);
  if (!checked.valid) throw new HttpError(400, 'invalid_input', checked.message);

  const key = stateKey(definition, toolCallId);
  const stored = await getWidgetState(db, sessionId, key);
  const current: WidgetState = stored
    ? { data: stored.data, version: stored.version }
    : { data: call.data, version: 0 };
  // An action is stale when it was chosen on data that is no longer the widget's. A client
  // that only has the tool call's own snapshot (version 0) is not, while that snapshot is still
  // what is stored: it may simply not have heard of the write that stored it (the model's own
  // edit of a session-wide board, made before the page's event stream was listening).
  const seesCurrent =
    body.version === current.version ||
    (body.version === 0 && isDeepStrictEqual(call.data, current.data));
  if (!seesCurrent) throw stale(current);

  const result = await action.handle({ sessionId, toolCallId, ownerId }, args, current.data);
  if (result.status === 'error') throw new HttpError(422, 'action_refused', result.reason);
  const shape = validate(definition.data as object, result.data, 'data');
  if (!shape.valid) {
    throw new HttpError(
      500,
      'invalid_widget_data',
      `The ${definition.id} widget produced invalid data: ${shape.message}`,
    );
  }
  const state = await storeAndAnnounce(db, sessionId, key, definition, result.data, current);
  if (state) return state;
  const now = await getWidgetState(db, sessionId, key);
  throw stale({ data: now?.data, version: now?.version ?? 0 });
}

/**
 * Stores a widget's new data if its state is still at `from.version`, and tells every viewer.
 * Undefined when someone changed it first. The one way both the human and the model write.
 */
async function storeAndAnnounce(
  db: Db,
  sessionId: string,
  key: string,
  definition: WidgetDefinition,
  data: unknown,
  from: Pick<WidgetState, 'version'>,
): Promise<WidgetState | undefined> {
  const limit = maxWidgetDataBytes();
  if (Buffer.byteLength(JSON.stringify(data) ?? '') > limit) {
    throw new HttpError(
      413,
      'widget_data_too_large',
      `The ${definition.id} widget's data would be larger than ${limit} bytes, so it was not changed.`,
    );
  }
  const version = await writeWidgetState(db, {
    sessionId,
    key,
    widgetId: definition.id,
    data,
    version: from.version,
  });
  if (version === undefined) return undefined;
  publish(sessionId, { type: 'widget', toolCallId: key, data, version });
  return { data, version };
}

function notFound(message: string): HttpError {
  return new HttpError(404, 'not_found', message);
}

function stale(current: WidgetState): HttpError {
  return new HttpError(
    409,
    'stale_version',
    'The widget changed since you saw it: it now shows the latest; try again.',
    current,
  );
}

const MAX_ATTEMPTS = 5;

/**
 * The model's path to a session-wide widget (a tool editing the task board): reads the state,
 * applies `change`, stores it — again from the fresh state if a human's action got there first
 * — and announces it to every viewer. Returns the new data, or the change's own refusal.
 */
export async function changeSessionWidget<Data>(
  db: Db,
  sessionId: string,
  definition: WidgetDefinition,
  empty: Data,
  change: (data: Data) => { data: Data } | { error: string },
): Promise<{ data: Data } | { error: string }> {
  const key = stateKey(definition, '');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await getWidgetState(db, sessionId, key);
    const outcome = change(stored ? (stored.data as Data) : empty);
    if ('error' in outcome) return outcome;
    const from = { version: stored?.version ?? 0 };
    if (await storeAndAnnounce(db, sessionId, key, definition, outcome.data, from)) return outcome;
  }
  return { error: 'the board kept changing under this edit; try again' };
}
