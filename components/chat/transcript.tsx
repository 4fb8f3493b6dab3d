'use client';

import { ArrowDown, ArrowUp, CircleStop } from 'lucide-react';
import {
  type ReactNode,
  type Ref,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  type CustomContainerComponentProps,
  type CustomItemComponentProps,
  Virtualizer,
  type VirtualizerHandle,
} from 'virtua';
import type { QuantaMessage } from '@/lib/protocol';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { ActionButton } from './action-button';
import type { ChatStatus } from './chat-store';
import { MessageRow } from './message-row';
import { handOverCache, type Row, rowKey } from './transcript-rows';
import { TurnError } from './turn-error';
import type { EarlierState } from './use-earlier-messages';
import { useFollowNewest } from './use-follow-newest';
import { useKeptPlace } from './use-kept-place';

type TranscriptProps = {
  messages: QuantaMessage[];
  /** The server holds messages before the first of `messages`. */
  hasEarlier: boolean;
  earlier: EarlierState;
  /** Loads the page before the first message (does nothing while one is on its way). */
  onLoadEarlier: () => void;
  status: ChatStatus;
  /** This tab's last request failed (the server refused it, or its stream broke). */
  error: Error | undefined;
  /** A reader's view: an empty session says so plainly. */
  readOnly: boolean;
  /** The owner may start a turn now: none runs, here or elsewhere. */
  canAct: boolean;
  stopRequested: boolean;
  /** The viewer owns the session: answers show their token usage. */
  showUsage: boolean;
  /** The callbacks below must be stable: rows are memoised. */
  onOpenWidget: (toolCallId: string) => void;
  onEdit: (messageId: string, text: string) => void;
  onRegenerate: () => void;
  onRetry: () => void;
};

/** Scrolled this close to the top, the page before is loaded, before the reader gets there. */
const LOAD_EARLIER_PX = 600;

/**
 * The rows the server renders: the newest, more than a screenful. The page's other rows come
 * after hydration (mounted only near the view): rendered on the server too, the HTML would
 * hold every message of the page twice, as markup and in the page's props. They are a plain
 * list, not virtua's SSR rows (`ssrCount`), which keep their range until the first scroll: a
 * transcript too short to scroll never showed a row added to it.
 */
const SERVER_ROWS = 8;

/**
 * The conversation, scrolled to follow its newest line; a button brings a reader who scrolled
 * up back to it. Under the last message: what the turn is doing, or why it failed. Only the
 * rows in and near the view are mounted (virtua); scrolling near the top loads the messages
 * before the first, keeping the rows in view where they are.
 */
export function Transcript({
  messages,
  hasEarlier,
  earlier,
  onLoadEarlier,
  status,
  error,
  readOnly,
  canAct,
  stopRequested,
  showUsage,
  onOpenWidget,
  onEdit,
  onRegenerate,
  onRetry,
}: TranscriptProps) {
  const { scrollRef, contentRef, isAtBottom, scrollToBottom, stopScroll } = useFollowNewest();
  const running = status === 'submitted' || status === 'streaming';
  const last = messages.at(-1);
  const failureShown = last?.role === 'assistant' && last.metadata?.status === 'failed';
  const lastPrompt = messages.findLastIndex((message) => message.role === 'user');

  // A new prompt is brought into view, even when the reader had scrolled up.
  const lastPromptId = messages[lastPrompt]?.id;
  useEffect(() => {
    if (lastPromptId) void scrollToBottom('instant');
  }, [lastPromptId, scrollToBottom]);

  const tail: ReactNode =
    stopRequested && last?.role === 'user' ? (
      <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <CircleStop aria-hidden className="size-4" />
        Stopped before answering
      </p>
    ) : status === 'submitted' ? (
      <p
        aria-live="polite"
        className="animate-pulse text-sm text-muted-foreground motion-reduce:animate-none"
      >
        Thinking…
      </p>
    ) : undefined;
  // The heights of the server's rows, by row, measured as the page hydrates.
  const serverList = useRef<HTMLOListElement>(null);
  const [serverSizes, setServerSizes] = useState<Map<string, number>>();
  const hydrated = serverSizes !== undefined;
  // Rows before `from` are not rendered before hydration: the server's HTML holds the newest.
  const from = hydrated ? 0 : Math.max(0, messages.length - SERVER_ROWS);
  const rows: Row[] = [...messages.slice(from), ...(tail === undefined ? [] : ['tail' as const])];
  const [serverRows] = useState(() => rows.map(rowKey));
  useEffect(() => {
    const heights = [...(serverList.current?.children ?? [])].map(
      (row) => row.getBoundingClientRect().height,
    );
    setServerSizes(new Map(heights.map((height, row) => [serverRows[row] ?? '', height])));
  }, [serverRows]);
  // virtua starts with the server's rows measured, where they stand, and guesses the others at
  // their median (as virtua guesses from the rows it measures: one long answer does not make
  // every row tall). Left to measure them itself, it placed them by the guess until it had: the
  // view, scrolled to the end of the guessed rows, stood 210 px above the newest line for a frame
  // or more once they were measured.
  // biome-ignore lint/correctness/useExhaustiveDependencies: virtua reads it once, as it mounts
  const cache = useMemo(() => serverSizes && handOverCache(rows, serverSizes), [serverSizes]);

  // Messages put before the first keep the rows in view in place (virtua's `shift`), for the
  // one render that adds them.
  const first = messages[0]?.id;
  const previousFirst = useRef(first);
  const shift =
    first !== previousFirst.current && messages.some(({ id }) => id === previousFirst.current);
  useEffect(() => {
    previousFirst.current = first;
  }, [first]);

  // Where the list starts in the scroller: virtua needs it to know which rows are in view. It is
  // the list's offset in the content, which starts the scroller once it is a plain block; in the
  // reversed column of the first paint the content starts above the scroller's top.
  const listTop = useRef<HTMLDivElement>(null);
  const [startMargin, setStartMargin] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the button, its alert and the list come and go
  useLayoutEffect(() => {
    setStartMargin((listTop.current?.offsetTop ?? 0) - (contentRef.current?.offsetTop ?? 0));
  }, [hasEarlier, earlier, contentRef, messages.length === 0]);

  // Where the first row stood when a load of earlier messages began (the scroller's own offset:
  // virtua hears of a scroll after this component's handler); once the rows are in above it,
  // that row is held there while they are measured (see useKeptPlace).
  const virtualizer = useRef<VirtualizerHandle>(null);
  const keepPlace = useKeptPlace(scrollRef, listTop);
  const place = useRef<{ id: string; fromTop: number }>(undefined);
  const rememberPlace = () => {
    const handle = virtualizer.current;
    const scroller = scrollRef.current;
    if (!handle || !scroller || first === undefined) return;
    place.current = {
      id: first,
      fromTop: startMargin + handle.getItemOffset(0) - scroller.scrollTop,
    };
  };
  useLayoutEffect(() => {
    // Runs on every streamed frame: nothing to look up unless a load of earlier ones is noted.
    const kept = place.current;
    if (!kept) return;
    const index = messages.findIndex(({ id }) => id === kept.id);
    if (index <= 0) return;
    place.current = undefined;
    keepPlace({ index, fromTop: kept.fromTop });
  }, [messages, keepPlace]);

  const renderRow = (row: Row, shown: number) =>
    row === 'tail' ? (
      <div key={rowKey(row)}>{tail}</div>
    ) : (
      <MessageRow
        key={row.id}
        message={row}
        onOpenWidget={onOpenWidget}
        onEdit={canAct ? onEdit : undefined}
        // An edit drops what follows; it asks first when that holds later turns.
        dropsOnEdit={
          row.role === 'user' && from + shown < lastPrompt ? messages.length - from - shown - 1 : 0
        }
        onRegenerate={
          canAct && (failureShown || !error) && row === last && row.role === 'assistant'
            ? onRegenerate
            : undefined
        }
        streaming={running && row === last}
        stopRequested={stopRequested && row === last}
        showUsage={showUsage}
      />
    );

  const loadEarlier = () => {
    // Rows put above must not pull a reader who follows the newest line down to it again.
    stopScroll();
    rememberPlace();
    onLoadEarlier();
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scrollRef}
        // The server's rows are more than a screenful, and the browser opens a scroller at its
        // top: the reader would see the older rows until the page hydrates and scrolls to the
        // newest. A reversed column opens at its end instead, with no script; its one child
        // keeps its full width, and its auto margin keeps a transcript shorter than the view at
        // the top, where it stays.
        className={cn(
          'absolute inset-0 overflow-y-auto',
          !hydrated && 'flex flex-col-reverse *:mb-auto *:w-full',
        )}
        onScroll={(event) => {
          // Reversed until then, the scroller's offset counts from its end.
          if (!hydrated) return;
          // After a failure only the button tries again: every scroll near the top would.
          if (hasEarlier && earlier === 'idle' && event.currentTarget.scrollTop < LOAD_EARLIER_PX) {
            rememberPlace();
            onLoadEarlier();
          } else if (earlier === 'loading') {
            rememberPlace();
          }
        }}
      >
        <div ref={contentRef} className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
          {hasEarlier && (
            <EarlierButton state={earlier} onLoad={loadEarlier} onFocus={stopScroll} />
          )}
          {messages.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">
              {readOnly ? 'No messages yet.' : 'Ask anything. Tools answer in the transcript.'}
            </p>
          ) : (
            <div ref={listTop} className="-mb-6">
              {hydrated ? (
                <Virtualizer
                  as={TranscriptList}
                  item={TranscriptRow}
                  data={rows}
                  scrollRef={scrollRef}
                  ref={virtualizer}
                  startMargin={startMargin}
                  itemSize={cache?.[1]}
                  cache={cache}
                  shift={shift}
                >
                  {renderRow}
                </Virtualizer>
              ) : (
                <TranscriptList style={{}} ref={serverList}>
                  {rows.map((row, shown) => {
                    const element = renderRow(row, shown);
                    return (
                      <TranscriptRow key={element.key} style={{}} index={shown}>
                        {element}
                      </TranscriptRow>
                    );
                  })}
                </TranscriptList>
              )}
            </div>
          )}
          {error && !failureShown && <TurnError message={error.message} onRetry={onRetry} />}
        </div>
      </div>
      {!isAtBottom && (
        <ActionButton
          label="Jump to latest"
          variant="outline"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
          onClick={() => void scrollToBottom()}
        >
          <ArrowDown aria-hidden />
        </ActionButton>
      )}
    </div>
  );
}

/**
 * Above the first message while the server holds earlier ones: loads them, says so, or why not.
 * Focusing it scrolls the transcript to it: from then on the reader is at the top, and the view
 * no longer follows the newest line there.
 */
function EarlierButton({
  state,
  onLoad,
  onFocus,
}: {
  state: EarlierState;
  onLoad: () => void;
  onFocus: () => void;
}) {
  return (
    <div className="flex flex-col items-center gap-1">
      <Button
        variant="ghost"
        size="sm"
        pending={state === 'loading'}
        onClick={onLoad}
        onFocus={onFocus}
      >
        <ArrowUp aria-hidden />
        {state === 'loading' ? 'Loading earlier messages…' : 'Load earlier messages'}
      </Button>
      {state === 'failed' && (
        <p role="alert" className="text-sm text-destructive">
          Earlier messages could not be loaded. Try again.
        </p>
      )}
    </div>
  );
}

/**
 * The list of rows. virtua turns its pointer events off while the view scrolls, to keep hover
 * and clicks off the rows meanwhile (nothing of its own reads them), and on again 150 ms after
 * the last scroll. A streaming answer scrolls the view in bursts as it grows, so they went off
 * and on all through a stream, and the property is inherited: each switch restyled every
 * element of the transcript, long tasks of up to 133 ms in a 12,000-token answer
 * (bench/README.md, "A long answer's frames"). Kept on, clicks in a streaming transcript are no
 * longer lost either.
 */
function TranscriptList({ style, children, ref }: CustomContainerComponentProps) {
  return (
    <ol
      ref={ref as Ref<HTMLOListElement>}
      style={{ ...style, pointerEvents: undefined }}
      aria-label="Transcript"
    >
      {children}
    </ol>
  );
}

/**
 * A row's place in the list. The space between rows is below each (the list's margin takes the
 * last one's back), so a row put above another leaves that one's size as it was and a kept place
 * does not move by it. It is a box in the row, not its padding: virtua measures a row's content
 * box, and with a padding it placed each row 24 px too close, over the one above.
 */
function TranscriptRow({ style, children, index, ref }: CustomItemComponentProps) {
  return (
    <li
      ref={ref as Ref<HTMLLIElement>}
      style={style}
      data-index={index}
      className="flex flex-col after:h-6 after:shrink-0 after:content-['']"
    >
      {children}
    </li>
  );
}
