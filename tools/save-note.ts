import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, note, ok } from '@/lib/tools';

export const MAX_NOTE_LENGTH = 2000;
/** How much of a note the model is told back: it wrote the note, it needs no full copy. */
export const SUMMARY_LENGTH = 80;

/** `text` on one line, cut to `max` characters (an ellipsis marking the cut). */
export function shorten(text: string, max = SUMMARY_LENGTH): string {
  const characters = Array.from(text.replace(/\s+/g, ' ').trim());
  return characters.length <= max
    ? characters.join('')
    : `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

export const saveNote = defineTool({
  name: 'save_note',
  description:
    'Saves a note on this chat session, where the user keeps it. Use it when the user asks ' +
    'you to note, remember or save something: put what to keep in `text`, in their words.',
  parameters: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_NOTE_LENGTH,
        description: 'The note, e.g. "buy milk"',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  async execute(_agentId, _toolCallId, { text }, { notes }) {
    const kept = text.trim();
    if (kept === '') return err('cannot save an empty note: text has no words');
    try {
      await notes.add(kept);
      const count = await notes.count();
      return ok(
        `Saved the note: "${shorten(kept)}". ` +
          `The session has ${count} ${count === 1 ? 'note' : 'notes'}.`,
        note('Saved to notes'),
      );
    } catch (error) {
      // The store's words (a database's query, tables, host) are for the operator, not the model.
      console.error('save_note: saving a note failed', error);
      return err('could not save the note; try again later');
    }
  },
});

/** The demo model's way to `save_note`: "save a note: …", "remember that …", "note that …". */
export const saveNoteIntent: Intent = {
  tool: saveNote.name,
  example: 'save a note: buy milk',
  lead: 'I’ll note that down.',
  answer: ({ args }) => `I saved “${shorten(String(args.text))}” to this session’s notes.`,
  match(clause) {
    // The note is what follows the phrase.
    const found =
      /\b(?:(?:save|add|make|take)\s+(?:a\s+)?note(?:\s+that)?|note\s+that|remember\s+that)\b[\s:,-]*(.*)$/i.exec(
        clause,
      );
    // A full stop ends the sentence, not the note.
    const text = found?.[1]?.replace(/[\s.!]+$/, '');
    return text && Array.from(text).length <= MAX_NOTE_LENGTH ? { text } : undefined;
  },
};
