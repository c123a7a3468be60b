import { Redis } from 'ioredis';
import type { Bus, BusHandler } from './bus.js';
import { closeRedis } from './close-redis.js';

/**
 * Redis pub/sub fan-out: one connection publishes, one subscribes (a subscribed Redis connection can
 * do nothing else). Each topic is a Redis channel, subscribed only while a local socket needs it.
 */
export class RedisBus implements Bus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<BusHandler>>();

  private readonly prefix: string;

  constructor(
    url: string,
    namespace: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.prefix = `${namespace}bus:`;
    this.pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: false });
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (channel: string, payload: string) => this.deliver(channel, payload));
  }

  async publish(topic: string, message: unknown): Promise<void> {
    await this.pub.publish(this.prefix + topic, JSON.stringify(message));
  }

  async subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(topic);
    if (!set) {
      this.handlers.set(topic, (set = new Set()));
      await this.sub.subscribe(this.prefix + topic);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(topic) === set) {
        this.handlers.delete(topic);
        await this.sub.unsubscribe(this.prefix + topic);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.all([closeRedis(this.pub), closeRedis(this.sub)]);
  }

  private deliver(channel: string, payload: string): void {
    const handlers = this.handlers.get(channel.slice(this.prefix.length));
    if (!handlers) return;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch (error) {
      this.onError(error);
      return;
    }
    for (const handler of handlers) handler(message);
  }
}
