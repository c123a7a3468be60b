import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SocketRouter } from './socket-router.js';

const ping = z.object({ type: z.literal('ping'), n: z.number() });
const pong = z.object({ type: z.literal('pong') });
const union = z.discriminatedUnion('type', [ping, pong]);

describe('SocketRouter', () => {
  it('hands a message to the handler of its schema, parsed', async () => {
    const seen: unknown[] = [];
    const router = new SocketRouter<string>(union)
      .on(ping, async (socket, message) => void seen.push([socket, message.n]))
      .on(pong, async () => undefined);
    expect(await router.dispatch('socket-1', { type: 'ping', n: 3, extra: true })).toBeNull();
    expect(seen).toEqual([['socket-1', 3]]);
  });

  it('drops messages without a type, of an unknown type, or failing their schema', async () => {
    const router = new SocketRouter<string>(union).on(ping, async () => undefined);
    expect(await router.dispatch('s', null)).toBe('message is not an object');
    expect(await router.dispatch('s', { n: 1 })).toBe('message without a type');
    expect(await router.dispatch('s', { type: 'nope' })).toBe('unknown message type');
    expect(await router.dispatch('s', { type: 'ping', n: 'x' })).toMatch(/^invalid ping/);
  });

  it('refuses a schema outside its union, a second handler, and an incomplete table', () => {
    const other = z.object({ type: z.literal('other') });
    const router = new SocketRouter<string>(union).on(ping, async () => undefined);
    expect(() => router.on(other, async () => undefined)).toThrow('not a message');
    expect(() => router.on(ping, async () => undefined)).toThrow('already has a handler');
    expect(() => router.assertComplete()).toThrow('without a handler: pong');
  });
});
