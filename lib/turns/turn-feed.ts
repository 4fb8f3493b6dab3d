import type { UIMessageChunk } from 'ai';

/**
 * A turn's chunks as its own instance holds them while it runs: every reader here (the client
 * that sent the prompt, a reload, another tab) replays them from the first it wants and then
 * follows, from the one pipeline that reads the turn.
 */
export class TurnFeed {
  private readonly chunks: UIMessageChunk[] = [];
  private ended = false;
  /** Readers waiting for more. */
  private readonly waiting = new Set<() => void>();

  append(chunk: UIMessageChunk): void {
    this.chunks.push(chunk);
    this.wake();
  }

  /** No more chunks: readers finish once they have read the last. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The chunks so far, in order (the turn-wide numbering is their index). */
  get written(): readonly UIMessageChunk[] {
    return this.chunks;
  }

  /** The chunks numbered `from` and later, as they come, until the turn ends. */
  read(from = 0): ReadableStream<UIMessageChunk> {
    let next = Math.max(0, from);
    let wake: (() => void) | undefined;
    return new ReadableStream<UIMessageChunk>({
      pull: async (controller) => {
        while (next >= this.chunks.length && !this.ended) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            this.waiting.add(resolve);
          });
        }
        // Everything there is, at once: a reader that fell behind catches up in one pull.
        while (next < this.chunks.length) controller.enqueue(this.chunks[next++] as UIMessageChunk);
        if (this.ended) controller.close();
      },
      cancel: () => {
        if (wake) this.waiting.delete(wake);
      },
    });
  }

  private wake(): void {
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }
}
