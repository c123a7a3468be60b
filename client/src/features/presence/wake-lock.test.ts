import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WakeLockKeeper, type WakeLockApi } from './wake-lock';

/** The browser's wake lock at its edge: hands out sentinels the test can release like a hidden page. */
class FakeWakeLock implements WakeLockApi {
  requests = 0;
  fail = false;
  sentinels: { released: boolean; release: () => Promise<void> }[] = [];
  request() {
    this.requests += 1;
    if (this.fail) return Promise.reject(new Error('NotAllowedError'));
    const sentinel = {
      released: false,
      release: () => {
        sentinel.released = true;
        return Promise.resolve();
      },
    };
    this.sentinels.push(sentinel);
    return Promise.resolve(sentinel);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WakeLockKeeper', () => {
  let api: FakeWakeLock;
  let visible: boolean;
  let keeper: WakeLockKeeper;
  beforeEach(() => {
    api = new FakeWakeLock();
    visible = true;
    keeper = new WakeLockKeeper(api, () => visible);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('holds the lock while wanted and releases it after', async () => {
    keeper.setWanted(true);
    await settle();
    expect(api.sentinels.map((s) => s.released)).toEqual([false]);
    keeper.setWanted(true);
    expect(api.requests).toBe(1);
    keeper.setWanted(false);
    await settle();
    expect(api.sentinels.map((s) => s.released)).toEqual([true]);
  });

  it('asks again when the page is shown after the browser dropped the lock', async () => {
    keeper.setWanted(true);
    await settle();
    visible = false;
    api.sentinels[0]!.released = true;
    visible = true;
    keeper.pageShown();
    await settle();
    expect(api.requests).toBe(2);
    keeper.setWanted(false);
    keeper.pageShown();
    expect(api.requests).toBe(2);
  });

  it('releases a lock that arrives after it stopped being wanted', async () => {
    keeper.setWanted(true);
    keeper.setWanted(false);
    await settle();
    expect(api.sentinels[0]!.released).toBe(true);
  });

  it('logs failures and works without the API', async () => {
    api.fail = true;
    keeper.setWanted(true);
    await settle();
    expect(console.warn).toHaveBeenCalledOnce();
    expect(() => new WakeLockKeeper(undefined, () => true).setWanted(true)).not.toThrow();
  });
});
