'use client';

import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
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
  const edited = draft.trim();

  function save(event?: FormEvent) {
    event?.preventDefault();
    if (edited === '') return;
    if (dropsOnEdit > 0) setConfirming(true);
    else onSave(edited);
  }

  function keys(event: KeyboardEvent) {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) save(event);
  }

  return (
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
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Edit this message?</DialogTitle>
            <DialogDescription>
              Editing this message removes{' '}
              {dropsOnEdit === 1 ? 'the message' : `the ${dropsOnEdit} messages`} after it.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="button" variant="destructive" onClick={() => onSave(edited)}>
              Send edit
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </form>
  );
}
