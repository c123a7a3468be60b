import type { PresenceStore } from './presence-store';
import { presenceStore } from './presence-store';
import { HoldGesture } from './talk-mode';
import { holdsToTalk, isHeld } from './transmit-gate';

/** The hold gesture of one presence store: the big button, the Space key and a headset drive it. */
export interface HoldControl {
  press(): void;
  release(): void;
  cancel(): void;
  /** Holding-to-talk applies right now: online in hold mode. */
  active(): boolean;
  holding(): boolean;
}

export function createHoldControl(store: PresenceStore): HoldControl {
  const gesture = new HoldGesture((holding) => store.dispatch({ type: 'hold', holding }));
  return {
    press: () => gesture.press(),
    release: () => gesture.release(),
    cancel: () => gesture.cancel(),
    active: () => store.state.online && holdsToTalk(store.state.gate),
    holding: () => isHeld(store.state.gate),
  };
}

/** The tab's one hold gesture. */
export const holdControl: HoldControl = createHoldControl(presenceStore);
