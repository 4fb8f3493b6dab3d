'use client';

import { useState } from 'react';
import { CopyButton } from './copy-button';
import { Modal, secondaryButton } from './modal';

/** Shows the signed-in owner their bearer token, so a script can act as them. */
export function TokenButton({ token }: { token: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} text-left`}
        onClick={() => setOpen(true)}
      >
        API token
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="Your API token"
        description="Send it as “Authorization: Bearer <token>” to act as you from a script. Anyone with it can read and change your sessions."
      >
        <code className="block rounded-md bg-zinc-100 p-2 text-xs break-all dark:bg-zinc-800">
          {token}
        </code>
        <div className="mt-3 flex justify-end">
          <CopyButton text={token} label="Copy token" />
        </div>
      </Modal>
    </>
  );
}
