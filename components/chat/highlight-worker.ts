// The code highlighter's own thread. Shiki converts and compiles a language's grammar on its
// first use: on the page's thread that took 100 to 170 ms mid-answer (a long task, input
// waiting); here it takes none of the page's time.
import { code } from '@streamdown/code';
import type { HighlightReply, HighlightRequest } from './worker-highlighter';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(reply: HighlightReply): void;
};

scope.onmessage = ({ data: { id, options } }) => {
  const reply = (result: HighlightReply['result']) => scope.postMessage({ id, result });
  // Streamdown passes a fence's language as written; @streamdown/code highlights one it does
  // not know as plain text.
  const ready = code.highlight(options as Parameters<typeof code.highlight>[0], reply);
  if (ready) reply(ready);
};
