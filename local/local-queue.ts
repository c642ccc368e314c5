import { randomUUID } from 'node:crypto';

/**
 * One in-process SQS queue (local/queues.ts serves them): visibility timeout,
 * ApproximateReceiveCount, a DLQ after maxReceiveCount receives, redrive, and consumers that wait
 * for a message (long polling) instead of polling on a timer.
 */

export interface Message {
  id: string;
  body: string;
  attributes: Record<string, { DataType: string; StringValue?: string }>;
  receiveCount: number;
  visibleAt: number;
  receiptHandle: string | null;
  sentAt: number;
  firstReceiveAt: number | null;
}

export interface QueueOptions {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  msPerSecond: number;
}

export class LocalQueue {
  readonly messages = new Map<string, Message>();
  /** Consumers waiting for a message (long polling): woken by a send, not by a timer. */
  private waiters = new Set<() => void>();
  constructor(
    readonly name: string,
    readonly options: QueueOptions,
    readonly dlq?: LocalQueue,
  ) {}

  send(body: string, attributes: Message['attributes'] = {}): string {
    const id = randomUUID();
    this.messages.set(id, {
      id,
      body,
      attributes,
      receiveCount: 0,
      visibleAt: Date.now(),
      receiptHandle: null,
      sentAt: Date.now(),
      firstReceiveAt: null,
    });
    this.wake();
    return id;
  }

  /** Wakes every waiting consumer (a message may be visible, or the consumers are stopping). */
  wake(): void {
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const w of waiting) w();
  }

  /**
   * Resolves when a message may be visible: at once on a send, a redrive or a visibility change,
   * after `ms` at the latest (a visibility timeout running out wakes nobody).
   */
  waitForMessages(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** How many messages are visible now and how many are in flight (received, not yet deleted). */
  depth(): { visible: number; inFlight: number } {
    const now = Date.now();
    let visible = 0;
    for (const m of this.messages.values()) if (m.visibleAt <= now) visible++;
    return { visible, inFlight: this.messages.size - visible };
  }

  /** Visible messages, up to `max`; those past maxReceiveCount move to the DLQ instead. */
  receive(max = 10): Message[] {
    const now = Date.now();
    const out: Message[] = [];
    for (const m of this.messages.values()) {
      if (out.length >= max) break;
      if (m.visibleAt > now) continue;
      if (this.dlq && m.receiveCount >= this.options.maxReceiveCount) {
        this.messages.delete(m.id);
        this.dlq.messages.set(m.id, { ...m, visibleAt: now, receiptHandle: null });
        continue;
      }
      m.receiveCount++;
      m.firstReceiveAt ??= now;
      m.receiptHandle = randomUUID();
      m.visibleAt = now + this.options.visibilityTimeoutSeconds * this.options.msPerSecond;
      out.push(m);
    }
    return out;
  }

  private byHandle(handle: string): Message | undefined {
    for (const m of this.messages.values()) if (m.receiptHandle === handle) return m;
    return undefined;
  }

  delete(handle: string): void {
    const m = this.byHandle(handle);
    if (m) this.messages.delete(m.id);
  }

  changeVisibility(handle: string, seconds: number): boolean {
    const m = this.byHandle(handle);
    if (!m) return false;
    m.visibleAt = Date.now() + seconds * this.options.msPerSecond;
    if (seconds === 0) this.wake();
    return true;
  }

  /** The console's "Start DLQ redrive": every DLQ message back to its source, counts reset. */
  redriveFromDlq(): number {
    if (!this.dlq) return 0;
    let moved = 0;
    for (const m of this.dlq.messages.values()) {
      this.dlq.messages.delete(m.id);
      this.messages.set(m.id, { ...m, receiveCount: 0, visibleAt: Date.now(), receiptHandle: null });
      moved++;
    }
    if (moved) this.wake();
    return moved;
  }

  get size(): number {
    return this.messages.size;
  }
}
