/**
 * Fan-out between server instances. Topics are `channel:<id>` (everyone viewing a channel) and
 * `user:<id>` (every socket of a user). In-process by default; Redis pub/sub when REDIS_URL is set.
 */
export type BusHandler = (message: unknown) => void;

export interface Bus {
  publish(topic: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const channelTopic = (channelId: number) => `channel:${channelId}`;
export const userTopic = (userId: string) => `user:${userId}`;

/** One process: delivery is a function call, asynchronous like the Redis bus so callers behave alike. */
export class InProcessBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  async publish(topic: string, message: unknown): Promise<void> {
    const handlers = this.handlers.get(topic);
    if (!handlers) return;
    // Delivered on a later tick, as over a network: publishers never re-enter their own handlers.
    const copy = structuredClone(message);
    queueMicrotask(() => {
      for (const handler of handlers) handler(copy);
    });
  }

  async subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(topic);
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
