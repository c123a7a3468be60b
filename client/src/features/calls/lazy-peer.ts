import type { PeerHandle } from './call-controller';

/**
 * A peer handle whose implementation loads on first use: the WebRTC call code is fetched when a
 * call starts, not with the main screen. Mute and close given before it arrives are applied then.
 */
export function lazyPeer(load: () => Promise<PeerHandle>): PeerHandle {
  let peer: PeerHandle | null = null;
  let muted: boolean | null = null;
  let closed = false;
  const loading = load().then((loaded) => {
    peer = loaded;
    if (muted !== null) loaded.setMuted(muted);
    if (closed) loaded.close();
    return loaded;
  });
  return {
    async start() {
      const loaded = await loading;
      if (!closed) await loaded.start();
    },
    setMuted(next) {
      muted = next;
      peer?.setMuted(next);
    },
    close() {
      closed = true;
      peer?.close();
    },
  };
}
