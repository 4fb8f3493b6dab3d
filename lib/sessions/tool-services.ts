import 'server-only';
import type { Db } from '../db/client';
import { addNote, countNotes } from '../db/notes';
import { getWidgetState } from '../db/widget-states';
import type { ToolServices } from '../tools/services';
import { stateKey } from '../widgets';
import type { WidgetDefinition } from '../widgets/actions';
import { changeSessionWidget } from './widget-service';

/**
 * The services a turn gives the tools of session `sessionId`: its notes, and its session-wide
 * widgets, changed through `changeSessionWidget` so that a tool's change is stored and announced
 * as a human's action is.
 */
export function toolServices(db: Db, sessionId: string): ToolServices {
  return {
    notes: {
      add: async (text) => {
        await addNote(db, sessionId, text);
      },
      count: () => countNotes(db, sessionId),
    },
    widgets: {
      read: async <Data>(widget: WidgetDefinition, empty: Data) => {
        const stored = await getWidgetState(db, sessionId, stateKey(widget, ''));
        return stored ? (stored.data as Data) : empty;
      },
      change: (widget, empty, change) => changeSessionWidget(db, sessionId, widget, empty, change),
    },
  };
}
