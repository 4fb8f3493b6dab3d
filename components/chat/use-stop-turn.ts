'use client';

import { useCallback, useEffect, useRef } from 'react';
import type { StopResponse } from '@/lib/protocol';
import { api } from '../api';
import type { ChatStatus } from './chat-store';

/**
 * Stop for a session's running turn. The server runs a turn to its end unless told (a closed
 * tab must not lose an answer), so Stop asks the server; the stream then ends by itself with
 * what was written. A Stop that comes before the server has started the turn is sent again as
 * soon as it has; `stopReading` is the fallback when the server cannot be reached.
 */
export function useStopTurn(
  sessionId: string,
  status: ChatStatus,
  stopReading: () => void,
): () => Promise<void> {
  const stopWhenStarted = useRef(false);
  // The status now, for answers that arrive after the render that asked.
  const currentStatus = useRef(status);
  currentStatus.current = status;
  const stopOnServer = useCallback(
    () => api<StopResponse>(`/api/sessions/${sessionId}/stop`, { method: 'POST' }),
    [sessionId],
  );

  useEffect(() => {
    if (status === 'streaming' && stopWhenStarted.current) {
      stopWhenStarted.current = false;
      void stopOnServer().catch(stopReading);
    }
    if (status === 'ready' || status === 'error') stopWhenStarted.current = false;
  }, [status, stopOnServer, stopReading]);

  return async () => {
    try {
      const { stopped } = await stopOnServer();
      if (stopped) return;
      // Not running there yet: stop it once it has started; if it started meanwhile, now. A
      // turn that already ended needs nothing (and the next one must not be stopped).
      if (currentStatus.current === 'submitted') stopWhenStarted.current = true;
      if (currentStatus.current === 'streaming') await stopOnServer();
    } catch {
      stopReading();
    }
  };
}
