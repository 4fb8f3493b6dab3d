'use client';

import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { ConfirmDialog } from '../confirm-dialog';
import { focusComposer } from '../focus-composer';
import { Button } from '../ui/button';
import { Textarea } from '../ui/textarea';

type EditMessageFormProps = {
  text: string;
  /** How many messages the edit removes when later turns follow it; 0 when none do. */
  dropsOnEdit: number;
  onSave: (text: string) => void;
  onCancel: () => void;
};

/**
 * A user message being edited. Saving runs the turn again from it; when later turns follow, a
 * dialog first says how many messages that removes.
 */
export function EditMessageForm({ text, dropsOnEdit, onSave, onCancel }: EditMessageFormProps) {
  const [draft, setDraft] = useState(text);
  const [confirming, setConfirming] = useState(false);
  const sent = useRef(false);
  const edited = draft.trim();

  // Once sent, this form is gone and the new turn runs: the composer is where typing goes next.
  function send() {
    sent.current = true;
    onSave(edited);
    focusComposer();
  }

  function save(event?: FormEvent) {
    event?.preventDefault();
    if (edited === '') return;
    if (dropsOnEdit > 0) setConfirming(true);
    else send();
  }

  function keys(event: KeyboardEvent) {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) save(event);
  }

  return (
    // The dialog sits beside the form, not in it: React events bubble through portals, and its
    // own form's submit would reach this one.
    <>
      <form onSubmit={save} className="flex flex-col gap-2">
        <Textarea
          aria-label="Edit message"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={keys}
          autoFocus
          className="max-h-[40dvh] min-h-10 resize-none rounded-xl bg-background"
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={edited === ''}>
            Send edit
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        // Cancelled, focus goes back to the draft (Modal's default); sent, on to the composer.
        onCloseAutoFocus={(event) => {
          if (!sent.current) return;
          event.preventDefault();
          focusComposer();
        }}
        title="Edit this message?"
        description={`Editing this message removes ${dropsOnEdit === 1 ? 'the message' : `the ${dropsOnEdit} messages`} after it.`}
        confirmLabel="Send edit"
        tone="danger"
        disabled={false}
        error={null}
        onConfirm={send}
      />
    </>
  );
}
