interface Item<T> {
  value: T;
  next: Item<T> | null;
}

/** Where a mailbox waits for its turn of the event loop before each message (see createScheduler). */
export interface TurnGate {
  /** null: go on now; else resolves at the caller's turn. */
  pass(): Promise<void> | null;
}

/**
 * A FIFO mailbox that hands messages to `process` one at a time, awaiting each
 * before the next (after xstate's Mailbox, made async). A handler that throws
 * is reported to `onError` and the mailbox carries on with the next message.
 * With a `gate`, each message waits for its turn first, so a busy actor
 * yields the event loop to the others between messages.
 */
export class Mailbox<T> {
  private head: Item<T> | null = null;
  private tail: Item<T> | null = null;
  private queued = 0;
  private active = false;
  private closed = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(
    private readonly process: (message: T) => Promise<void> | void,
    private readonly onError: (error: unknown, message: T) => void,
    private readonly gate?: TurnGate,
  ) {}

  /** Messages waiting (not counting the one being processed). */
  get size(): number {
    return this.queued;
  }

  /** Whether a message is being processed or waiting. */
  get busy(): boolean {
    return this.active;
  }

  /** Queues `message`; false (message dropped) once the mailbox is closed. Never runs a handler synchronously. */
  enqueue(message: T): boolean {
    if (this.closed) return false;
    const item: Item<T> = { value: message, next: null };
    if (this.tail) this.tail.next = item;
    else this.head = item;
    this.tail = item;
    this.queued++;
    if (!this.active) {
      this.active = true;
      this.drained = this.drain();
    }
    return true;
  }

  /** Stops accepting messages; those already queued are still processed. */
  close(): void {
    this.closed = true;
  }

  /** Resolves once every queued message has been processed. */
  idle(): Promise<void> {
    return this.drained;
  }

  private async drain(): Promise<void> {
    await Promise.resolve();
    while (this.head) {
      const turn = this.gate?.pass();
      if (turn) await turn;
      const item = this.head;
      if (!item) break;
      this.head = item.next;
      if (!this.head) this.tail = null;
      this.queued--;
      try {
        await this.process(item.value);
      } catch (error) {
        this.report(error, item.value);
      }
    }
    this.active = false;
  }

  private report(error: unknown, message: T): void {
    try {
      this.onError(error, message);
    } catch {
      // the reporter itself failed; nothing is left to tell, and the queue must keep moving
    }
  }
}
