import { randomUUID } from 'node:crypto';

/**
 * One in-process SQS queue (local/queues.ts serves them): visibility timeout,
 * ApproximateReceiveCount, a DLQ after maxReceiveCount receives, redrive, consumers that wait
 * for a message (long polling) instead of polling on a timer, and fair sharing among message
 * groups as SQS fair queues do (a standard queue whose messages carry a MessageGroupId).
 */

export interface Message {
  id: string;
  body: string;
  /** The message group (the tenant): receives share out among groups. */
  group: string;
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
  /**
   * How receives pick among visible messages: `groups` (the default, as an SQS fair queue) serves
   * the group with the fewest messages in flight first, so one tenant's burst does not hold back
   * another tenant's message; `fifo` takes them in the order they were sent, whatever their group
   * (a standard queue without groups, kept for the bench's before/after).
   */
  share?: 'groups' | 'fifo';
}

/** The group of a message sent without one: SQS accepts that on a fair queue too. */
export const NO_GROUP = '';

export class LocalQueue {
  readonly messages = new Map<string, Message>();
  /** Each group's messages in sending order: a receive looks at each group's head only. */
  private readonly byGroup = new Map<string, Map<string, Message>>();
  /** Each group's received messages not yet deleted (in flight while invisible). */
  private readonly received = new Map<string, Set<Message>>();
  private readonly handles = new Map<string, Message>();
  /** Consumers waiting for a message (long polling): woken by a send, not by a timer. */
  private waiters = new Set<() => void>();
  constructor(
    readonly name: string,
    readonly options: QueueOptions,
    readonly dlq?: LocalQueue,
  ) {}

  send(body: string, attributes: Message['attributes'] = {}, group: string = NO_GROUP): string {
    const id = randomUUID();
    this.add({
      id,
      body,
      group,
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

  private add(m: Message): void {
    this.messages.set(m.id, m);
    let list = this.byGroup.get(m.group);
    if (!list) this.byGroup.set(m.group, (list = new Map()));
    list.set(m.id, m);
  }

  private remove(m: Message): void {
    this.messages.delete(m.id);
    const list = this.byGroup.get(m.group);
    list?.delete(m.id);
    if (list?.size === 0) this.byGroup.delete(m.group);
    this.received.get(m.group)?.delete(m);
    if (m.receiptHandle) this.handles.delete(m.receiptHandle);
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

  /**
   * Visible messages, up to `max`; those past maxReceiveCount move to the DLQ instead. Among
   * groups, the one with the fewest messages in flight (received, not yet deleted or visible
   * again) gets the next message, ties to the group whose oldest message waits longest; within a
   * group, oldest first. With `share: 'fifo'` it is oldest first across the whole queue.
   */
  receive(max = 10): Message[] {
    const now = Date.now();
    const out = this.options.share === 'fifo' ? this.oldestFirst(max, now) : this.fairShare(max, now);
    for (const m of out) {
      m.receiveCount++;
      m.firstReceiveAt ??= now;
      // A new receive's handle replaces the last one, as in SQS.
      if (m.receiptHandle) this.handles.delete(m.receiptHandle);
      m.receiptHandle = randomUUID();
      this.handles.set(m.receiptHandle, m);
      let inFlight = this.received.get(m.group);
      if (!inFlight) this.received.set(m.group, (inFlight = new Set()));
      inFlight.add(m);
      m.visibleAt = now + this.options.visibilityTimeoutSeconds * this.options.msPerSecond;
    }
    return out;
  }

  /** Whether a visible message has used up its receives: it moves to the DLQ instead. */
  private spent(m: Message, now: number): boolean {
    if (!this.dlq || m.receiveCount < this.options.maxReceiveCount) return false;
    this.remove(m);
    this.dlq.add({ ...m, visibleAt: now, receiptHandle: null });
    return true;
  }

  private oldestFirst(max: number, now: number): Message[] {
    const out: Message[] = [];
    for (const m of this.messages.values()) {
      if (out.length >= max) break;
      if (m.visibleAt > now || this.spent(m, now)) continue;
      out.push(m);
    }
    return out;
  }

  private fairShare(max: number, now: number): Message[] {
    // Groups in the order they first had a message waiting (Map keeps insertion order).
    const groups: { load: number; visible: Message[] }[] = [];
    for (const [group, list] of this.byGroup) {
      let load = 0;
      for (const m of this.received.get(group) ?? []) if (m.visibleAt > now) load++;
      const visible: Message[] = [];
      // A group never gets more than one receive's worth: its first `max` visible messages.
      for (const m of list.values()) {
        if (visible.length >= max) break;
        if (m.visibleAt > now || this.spent(m, now)) continue;
        visible.push(m);
      }
      if (visible.length) groups.push({ load, visible });
    }
    const out: Message[] = [];
    while (out.length < max) {
      let next: { load: number; visible: Message[] } | undefined;
      for (const g of groups) if (g.visible.length && (!next || g.load < next.load)) next = g;
      if (!next) break;
      out.push(next.visible.shift()!);
      next.load++;
    }
    return out;
  }

  delete(handle: string): void {
    const m = this.handles.get(handle);
    if (m) this.remove(m);
  }

  changeVisibility(handle: string, seconds: number): boolean {
    const m = this.handles.get(handle);
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
      this.dlq.remove(m);
      this.add({ ...m, receiveCount: 0, visibleAt: Date.now(), receiptHandle: null });
      moved++;
    }
    if (moved) this.wake();
    return moved;
  }

  get size(): number {
    return this.messages.size;
  }
}
