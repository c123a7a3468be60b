// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { PeerHandle } from './call-controller';
import { lazyPeer } from './lazy-peer';

function fakePeer() {
  const log: string[] = [];
  const peer: PeerHandle = {
    start: () => {
      log.push('start');
      return Promise.resolve();
    },
    setMuted: (muted) => log.push(`muted ${muted}`),
    close: () => log.push('close'),
  };
  return { peer, log };
}

describe('lazyPeer', () => {
  it('applies mute given before the code arrived, then starts', async () => {
    const { peer, log } = fakePeer();
    const handle = lazyPeer(() => Promise.resolve(peer));
    handle.setMuted(true);
    await handle.start();
    expect(log).toEqual(['muted true', 'start']);
  });

  it('never starts a call that ended while its code was loading', async () => {
    const { peer, log } = fakePeer();
    const handle = lazyPeer(() => Promise.resolve(peer));
    handle.close();
    await handle.start();
    expect(log).toEqual(['close']);
  });
});
