import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { closeRedis } from '../realtime/close-redis.js';

/**
 * A token per user that changes whenever the user gains a channel, shared by every instance
 * (decision 053): a channel list read under one token is still whole while the token is the same.
 * Tokens are random, so one lost with Redis's data never comes back to match an old list.
 */
export interface ChannelListVersions {
  /** After the membership is committed, before anything reads the new member's presence. */
  bump(userIds: readonly string[]): Promise<void>;
  /** The user's token now ('' before any bump). */
  read(userId: string): Promise<string>;
  close(): Promise<void>;
}

export class MemoryChannelListVersions implements ChannelListVersions {
  private readonly tokens = new Map<string, string>();

  async bump(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) this.tokens.set(id, randomUUID());
  }

  async read(userId: string): Promise<string> {
    return this.tokens.get(userId) ?? '';
  }

  async close(): Promise<void> {}
}

export class RedisChannelListVersions implements ChannelListVersions {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly namespace: string,
    onError: (error: unknown) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', onError);
  }

  private key(userId: string): string {
    return `${this.namespace}channel-list:${userId}`;
  }

  async bump(userIds: readonly string[]): Promise<void> {
    for (const id of userIds) await this.redis.set(this.key(id), randomUUID());
  }

  async read(userId: string): Promise<string> {
    return (await this.redis.get(this.key(userId))) ?? '';
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}
