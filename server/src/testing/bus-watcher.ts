import { randomUUID } from 'node:crypto';
import type { Bus } from '../realtime/bus.js';
import { WAIT_FOR_MESSAGE_MS } from './test-socket.js';

export interface BusDelivery<T = Record<string, unknown>> {
  topic: string;
  message: T;
}

const MARKER = 'bus-watcher-marker';

/**
 * Listens on the running server's real bus, as another instance would, and keeps what arrives on
 * the topics a test watches: tests see what the server announced without replacing any of it.
 */
export class BusWatcher {
  readonly received: BusDelivery[] = [];
  private readonly unsubscribers: (() => Promise<void>)[] = [];
  private waiters: { match: (d: BusDelivery) => boolean; resolve: (d: BusDelivery) => void }[] = [];
  private readonly markers = new Map<string, () => void>();

  constructor(private readonly bus: Bus) {}

  async watch(...topics: string[]): Promise<this> {
    for (const topic of topics) {
      this.unsubscribers.push(
        await this.bus.subscribe(topic, (message) => this.deliver(topic, message)),
      );
    }
    return this;
  }

  /** Messages received on a topic (markers excluded), oldest first. */
  on<T = Record<string, unknown>>(topic: string): T[] {
    return this.received.filter((d) => d.topic === topic).map((d) => d.message as T);
  }

  /** The first delivery (already received or still to come) that matches. */
  next<T = Record<string, unknown>>(
    match: (message: T, topic: string) => boolean,
    timeoutMs = WAIT_FOR_MESSAGE_MS,
  ): Promise<BusDelivery<T>> {
    const test = (d: BusDelivery) => match(d.message as T, d.topic);
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen as BusDelivery<T>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nothing matching on the bus within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        match: test,
        resolve: (d) => {
          clearTimeout(timer);
          resolve(d as BusDelivery<T>);
        },
      });
    });
  }

  /**
   * Resolves once everything published on `topic` before this call has arrived: a marker sent now
   * comes back after them, since a topic delivers in order.
   */
  async settle(topic: string): Promise<void> {
    const id = randomUUID();
    const back = new Promise<void>((resolve) => this.markers.set(id, resolve));
    await this.bus.publish(topic, { type: MARKER, id });
    await back;
  }

  clear(): void {
    this.received.length = 0;
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribers.splice(0)) await unsubscribe();
  }

  private deliver(topic: string, message: unknown): void {
    const marker = message as { type?: unknown; id?: unknown };
    if (marker.type === MARKER) {
      this.markers.get(String(marker.id))?.();
      this.markers.delete(String(marker.id));
      return;
    }
    const delivery = { topic, message: message as Record<string, unknown> };
    this.received.push(delivery);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(delivery)) return true;
      w.resolve(delivery);
      return false;
    });
  }
}
