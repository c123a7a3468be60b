import type { HoldControl } from './hold-control';
import { holdsToTalk, isHeld } from './transmit-gate';
import type { PresenceStore } from './presence-store';

export type MediaSessionLike = Pick<MediaSession, 'setActionHandler'>;

const ACTIONS: MediaSessionAction[] = ['play', 'pause', 'stop'];

/**
 * The headset's play/pause button, where the browser's Media Session reaches the page (it does
 * while channel audio plays): self-mute in toggle mode, a latched hold in hold mode. Installed only
 * while online and opted in (`headsetTalk`). Returns stop.
 */
export function listenHeadset(
  store: PresenceStore,
  hold: HoldControl,
  session: MediaSessionLike | undefined,
): () => void {
  let installed = false;
  const toggle = () => {
    const { gate } = store.state;
    if (holdsToTalk(gate)) {
      if (isHeld(gate)) hold.cancel();
      else hold.press();
    } else {
      store.dispatch({ type: 'toggle_self_mute' });
    }
  };
  const set = (handler: (() => void) | null) => {
    for (const action of ACTIONS) {
      try {
        session?.setActionHandler(action, handler);
      } catch {
        // Not every browser supports every action; the others still work.
      }
    }
  };
  const sync = () => {
    const wanted = session !== undefined && store.state.online && store.state.gate.headsetTalk;
    if (wanted === installed) return;
    installed = wanted;
    set(wanted ? toggle : null);
  };
  const unsubscribe = store.subscribe(sync);
  sync();
  return () => {
    unsubscribe();
    if (installed) set(null);
    installed = false;
  };
}
