import { useEffect } from 'react';
import { cancelHold, pressToTalk } from './hold-control';
import { presenceStore } from './presence-store';

/**
 * A headset's play/pause button toggles talking where the browser's Media Session reaches the page
 * (it does while channel audio plays): self-mute in toggle mode, a latched hold in hold mode.
 */
export function useMediaSessionTalk(online: boolean): void {
  useEffect(() => {
    const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;
    if (!session || !online) return;
    const toggle = () => {
      const { talkMode, holding } = presenceStore.state;
      if (talkMode === 'hold') {
        if (holding) cancelHold();
        else pressToTalk();
      } else {
        presenceStore.dispatch({ type: 'toggle_self_mute' });
      }
    };
    const actions: MediaSessionAction[] = ['play', 'pause', 'stop'];
    for (const action of actions) {
      try {
        session.setActionHandler(action, toggle);
      } catch {
        // Not every browser supports every action; the others still work.
      }
    }
    return () => {
      for (const action of actions) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // as above
        }
      }
    };
  }, [online]);
}
