import type { BrowserContext } from '@playwright/test';
import type { ImpairmentRelay } from './impairment-relay.js';

/**
 * Puts a browser context's WebRTC traffic on a relay link. Every remote ICE candidate a page learns
 * (in a remote description or trickled) is rewritten, before the browser sees it, to the relay
 * port that forwards to it; candidates the relay cannot carry (TCP, IPv6, mDNS names) are dropped.
 * The browser therefore has no path to the other side but through the relay. The other side must
 * not open paths of its own to the browser's candidates: the built-in SFU is ICE-lite, a LiveKit
 * node for this must run with `rtc.use_ice_lite`, and a browser peer has its own candidates rewritten
 * the same way.
 *
 * Call before the context opens its page.
 */
export async function routeThroughRelay(
  context: BrowserContext,
  relay: ImpairmentRelay,
  link: string,
): Promise<void> {
  await context.exposeBinding('__chirpRelayRoute', (_source, address: string, port: number) =>
    relay.route(link, address, port),
  );
  await context.addInitScript({ content: pageHook });
}

/**
 * Runs in the page before its own scripts: wraps the two doors remote candidates come in by. Plain
 * JavaScript in a string, as the bundlers that run benches and tests would otherwise add helpers
 * to a serialised function that the page does not have.
 */
const pageHook = `(() => {
  const route = globalThis.__chirpRelayRoute;
  async function rewrite(candidate) {
    const prefix = candidate.startsWith('a=') ? 'a=' : '';
    const parts = candidate.slice(prefix.length).split(' ');
    if (parts.length < 8) return candidate;
    const transport = parts[2].toLowerCase();
    const address = parts[4];
    if (transport !== 'udp' || !/^\\d+\\.\\d+\\.\\d+\\.\\d+$/.test(address)) return null;
    parts[4] = '127.0.0.1';
    parts[5] = String(await route(address, Number(parts[5])));
    return prefix + parts.join(' ');
  }
  async function rewriteSdp(sdp) {
    const out = [];
    for (const line of sdp.split('\\r\\n')) {
      if (!line.startsWith('a=candidate:')) { out.push(line); continue; }
      const rewritten = await rewrite(line);
      if (rewritten !== null) out.push(rewritten);
    }
    return out.join('\\r\\n');
  }
  // One queue per connection, so a description and the candidates after it keep their order.
  const queues = new WeakMap();
  function inOrder(pc, step) {
    const next = (queues.get(pc) || Promise.resolve()).then(step, step);
    queues.set(pc, next.catch(() => undefined));
    return next;
  }
  const proto = RTCPeerConnection.prototype;
  const setRemote = proto.setRemoteDescription;
  const addCandidate = proto.addIceCandidate;
  proto.setRemoteDescription = function (description) {
    return inOrder(this, async () => {
      const sdp = description && description.sdp;
      const rewritten = sdp ? { type: description.type, sdp: await rewriteSdp(sdp) } : description;
      return setRemote.call(this, rewritten);
    });
  };
  proto.addIceCandidate = function (candidate) {
    return inOrder(this, async () => {
      if (!candidate || !candidate.candidate) return addCandidate.call(this, candidate || undefined);
      const rewritten = await rewrite(candidate.candidate);
      if (rewritten === null) return;
      return addCandidate.call(this, {
        candidate: rewritten,
        sdpMid: candidate.sdpMid ?? null,
        sdpMLineIndex: candidate.sdpMLineIndex ?? null,
        usernameFragment: candidate.usernameFragment ?? null,
      });
    });
  };
})();`;
