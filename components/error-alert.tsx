import type { ReactNode } from 'react';
import { Alert, AlertDescription } from './ui/alert';

/** Why an action failed, in the server's words: announced, in the destructive colour. */
export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}
