// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readLastChannel, rememberLastChannel } from './last-channel';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the last channel', () => {
  it('is remembered per user, follows changes and forgets a channel that went away', () => {
    const storage = memoryStorage();
    let current: number | null = null;
    const listeners = new Set<() => void>();
    const channel = {
      get: () => current,
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const set = (id: number | null) => {
      current = id;
      listeners.forEach((listener) => listener());
    };
    const stop = rememberLastChannel('u1', channel, storage);
    set(4);
    expect(readLastChannel('u1', storage)).toBe(4);
    expect(readLastChannel('u2', storage)).toBeNull();
    set(null);
    expect(readLastChannel('u1', storage)).toBeNull();
    stop();
    set(5);
    expect(readLastChannel('u1', storage)).toBeNull();
  });

  it('ignores what is not a channel id', () => {
    const storage = memoryStorage();
    storage.setItem('chirp.lastChannel.u1', 'abc');
    expect(readLastChannel('u1', storage)).toBeNull();
  });
});
