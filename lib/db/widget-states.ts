import { and, eq, inArray, like, or } from 'drizzle-orm';
import type { Db } from './client';
import { type WidgetStateRow, widgetStates } from './schema';
import { storable } from './storable';

// The `tool_call_id` column holds a state key (lib/widgets/state-key.ts): a tool call's id, or
// `session:<widget id>` for a widget whose state the whole session shares.

/** The states of these tool calls' widgets, and those the whole session shares. */
export async function listWidgetStatesOf(
  db: Db,
  sessionId: string,
  toolCallIds: string[],
): Promise<WidgetStateRow[]> {
  return db
    .select()
    .from(widgetStates)
    .where(
      and(
        eq(widgetStates.sessionId, sessionId),
        or(
          like(widgetStates.toolCallId, 'session:%'),
          toolCallIds.length > 0 ? inArray(widgetStates.toolCallId, toolCallIds) : undefined,
        ),
      ),
    );
}

export async function getWidgetState(
  db: Db,
  sessionId: string,
  key: string,
): Promise<WidgetStateRow | undefined> {
  const [row] = await db
    .select()
    .from(widgetStates)
    .where(and(eq(widgetStates.sessionId, sessionId), eq(widgetStates.toolCallId, key)));
  return row;
}

/**
 * Stores `data`, made storable (lib/db/storable), if the state is still at `version` (0: never
 * stored). Returns the new version, or undefined when someone else changed it first (optimistic
 * concurrency).
 */
export async function writeWidgetState(
  db: Db,
  state: { sessionId: string; key: string; widgetId: string; data: unknown; version: number },
): Promise<number | undefined> {
  const { sessionId, key, widgetId, version } = state;
  const data = storable(state.data);
  const rows =
    version === 0
      ? await db
          .insert(widgetStates)
          .values({ sessionId, toolCallId: key, widgetId, data, version: 1 })
          .onConflictDoNothing()
          .returning({ version: widgetStates.version })
      : await db
          .update(widgetStates)
          .set({ data, version: version + 1, updatedAt: new Date() })
          .where(
            and(
              eq(widgetStates.sessionId, sessionId),
              eq(widgetStates.toolCallId, key),
              eq(widgetStates.version, version),
            ),
          )
          .returning({ version: widgetStates.version });
  return rows[0]?.version;
}
