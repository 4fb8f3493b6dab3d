import type { PostMessageBody, QuantaMessage } from '@/lib/protocol';
import { type AnswerChunk, StreamingAnswer } from './streaming-answer';

/** `submitted`: a turn was asked for and no answer has shown yet; `streaming`: it shows. */
export type ChatStatus = 'submitted' | 'streaming' | 'ready' | 'error';

/**
 * How the chat reaches the server: a new turn's stream, or the running turn's (null when none
 * runs).
 */
export type ChatTransport = {
  send(body: PostMessageBody, signal: AbortSignal): Promise<ReadableStream<AnswerChunk>>;
  reconnect(signal: AbortSignal): Promise<ReadableStream<AnswerChunk> | null>;
};

/** What the page renders: replaced as a whole whenever any of it changes. */
export type ChatSnapshot = {
  messages: QuantaMessage[];
  status: ChatStatus;
  error: Error | undefined;
};

type ChatOptions = {
  messages: QuantaMessage[];
  transport: ChatTransport;
  generateId: () => string;
  /** A streaming answer is shown at most this often; a change of status at once. */
  throttleMs: number;
  /** After each turn this tab asked for (even one the server refused) or read, however it ended. */
  onFinish?: () => void;
};

/**
 * A session's chat in the page: its messages, the turn it reads and how that turn is going.
 * React reads it as an external store (`subscribe`, `getSnapshot`); the getters answer between
 * renders, for a decision taken after an await.
 *
 * It does what the AI SDK's `Chat` does for Quanta's turns, without the SDK's code in the page
 * (docs/DESIGN.md, "The chat in the browser").
 */
export class ChatStore {
  private now: ChatSnapshot;
  private shown: ChatSnapshot;
  private readonly listeners = new Set<() => void>();
  private lastShownAt = 0;
  private showTimer: ReturnType<typeof setTimeout> | undefined;
  /** The request being read, and when it is done. */
  private active: { controller: AbortController; done: Promise<void> } | undefined;
  /**
   * The answer being read, in `now.messages` as it grows; the page is shown a copy of it, made
   * when a change shows, not at every chunk.
   */
  private live: QuantaMessage | undefined;

  constructor(private readonly options: ChatOptions) {
    this.now = { messages: options.messages, status: 'ready', error: undefined };
    this.shown = this.now;
  }

  get messages(): QuantaMessage[] {
    return this.now.messages;
  }

  set messages(messages: QuantaMessage[]) {
    this.change({ messages });
  }

  get lastMessage(): QuantaMessage | undefined {
    return this.now.messages.at(-1);
  }

  get status(): ChatStatus {
    return this.now.status;
  }

  get error(): Error | undefined {
    return this.now.error;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = () => this.shown;

  /** Sends a new prompt, or, with `messageId`, an edit of that prompt (what came after it goes). */
  sendMessage = async ({ text, messageId }: { text: string; messageId?: string }) => {
    const message: QuantaMessage = {
      id: messageId ?? this.options.generateId(),
      role: 'user',
      parts: [{ type: 'text', text }],
    };
    const messages = this.now.messages;
    const index = messageId ? messages.findIndex(({ id }) => id === messageId) : messages.length;
    if (index === -1 || (messageId && messages[index]?.role !== 'user')) {
      throw new Error(`There is no prompt ${messageId} to edit.`);
    }
    const body: PostMessageBody = {
      trigger: messageId ? 'edit' : 'submit',
      message: { id: message.id, role: 'user', parts: [{ type: 'text', text }] },
    };
    await this.read((signal) => this.options.transport.send(body, signal), {
      messages: [...messages.slice(0, index), message],
    });
  };

  /** Asks for the last answer again (it goes), or for an answer to a prompt that has none. */
  regenerate = async () => {
    const messages = this.now.messages;
    await this.read((signal) => this.options.transport.send({ trigger: 'regenerate' }, signal), {
      messages: messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages,
    });
  };

  /**
   * Reads the turn the server runs now, from its first chunk: the answer it starts replaces
   * the partial one of the same id this page holds. Nothing when no turn runs.
   */
  resumeStream = async () => {
    await this.read((signal) => this.options.transport.reconnect(signal));
  };

  /** Stops reading (the server's turn is stopped by its own route); done when the read is. */
  stop = async () => {
    const active = this.active;
    active?.controller.abort();
    await active?.done;
  };

  clearError = () => {
    if (this.now.status === 'error') this.change({ status: 'ready', error: undefined });
  };

  /**
   * Reads the turn `open` asks for. A new turn (`sent`: the transcript it is asked with) shows
   * as submitted at once; a running turn (none sent) once its stream opens.
   */
  private async read(
    open: (signal: AbortSignal) => Promise<ReadableStream<AnswerChunk> | null>,
    sent?: Pick<ChatSnapshot, 'messages'>,
  ) {
    this.active?.controller.abort();
    const controller = new AbortController();
    const { signal } = controller;
    let finished = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const active = { controller, done };
    this.active = active;
    const current = () => this.active === active;
    // A new turn is asked for once it is sent (even if the server refuses it), a running one
    // once its stream opens.
    let asked = sent !== undefined;
    const answer = new StreamingAnswer(this.options.generateId());
    try {
      if (sent) this.change({ ...sent, status: 'submitted', error: undefined });
      const stream = await open(signal);
      if (!stream || signal.aborted) {
        await stream?.cancel().catch(() => {});
        if (current()) this.change({ status: 'ready', error: undefined });
        return;
      }
      asked = true;
      if (!sent) this.change({ status: 'submitted', error: undefined });
      await this.readAnswer(stream, answer, signal);
      if (current()) this.change({ status: 'ready', error: undefined });
    } catch (error) {
      if (!current()) return;
      if (signal.aborted || (error as Error)?.name === 'AbortError') {
        this.change({ status: 'ready', error: undefined });
      } else {
        this.change({
          status: 'error',
          error: error instanceof Error ? error : new Error(String(error)),
        });
      }
    } finally {
      // The read's last change has just shown, with its copy of the answer: the transcript
      // keeps that copy, so the next change shows the same message, not a new copy of it.
      if (current() && this.live === answer.message) {
        this.now = this.shown;
        this.live = undefined;
      }
      try {
        if (asked) this.options.onFinish?.();
      } finally {
        if (current()) this.active = undefined;
        finished();
      }
    }
  }

  /**
   * Builds the answer from the stream, placing it as it grows, until the stream or Stop ends it.
   */
  private async readAnswer(
    stream: ReadableStream<AnswerChunk>,
    answer: StreamingAnswer,
    signal: AbortSignal,
  ) {
    const reader = stream.getReader();
    // Stop ends the read at once, whatever the stream does after.
    const cancel = () => void reader.cancel().catch(() => {});
    signal.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || signal.aborted) return;
        const effect = answer.apply(value);
        if (effect !== 'none') this.place(answer.message, effect === 'content');
      }
    } finally {
      signal.removeEventListener('abort', cancel);
      cancel();
    }
  }

  /**
   * Puts the growing answer in the transcript, in place of the message with its id (a replay's
   * partial answer) or after the rest, unless it is there already.
   */
  private place(answer: QuantaMessage, shows: boolean) {
    this.live = answer;
    const messages = this.now.messages;
    let placed = messages;
    // Looked for from the end, where it is: this runs for every chunk.
    if (messages.lastIndexOf(answer) === -1) {
      const index = messages.findLastIndex(({ id }) => id === answer.id);
      placed = index === -1 ? [...messages, answer] : messages.with(index, answer);
    }
    if (shows && this.now.status !== 'streaming')
      this.change({ messages: placed, status: 'streaming' });
    else this.change({ messages: placed }, true);
  }

  /** Applies a change; it shows at once, or, `throttled`, within `throttleMs`. */
  private change(change: Partial<ChatSnapshot>, throttled = false) {
    this.now = { ...this.now, ...change };
    if (!throttled) return this.show();
    if (this.showTimer) return;
    const wait = this.lastShownAt + this.options.throttleMs - Date.now();
    if (wait <= 0) this.show();
    else this.showTimer = setTimeout(() => this.show(), wait);
  }

  private show() {
    clearTimeout(this.showTimer);
    this.showTimer = undefined;
    this.lastShownAt = Date.now();
    const live = this.live;
    this.shown = live
      ? {
          ...this.now,
          messages: this.now.messages.map((message) =>
            message === live ? structuredClone(live) : message,
          ),
        }
      : this.now;
    for (const listener of this.listeners) listener();
  }
}
