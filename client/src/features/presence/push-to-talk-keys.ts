import type { HoldControl } from './hold-control';
import { listen, type Listenable } from './page-events';

const isEditable = (target: EventTarget | null) =>
  typeof HTMLElement !== 'undefined' &&
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * Hold to talk with the Space key while the page has focus (not while typing), on every screen.
 * Space is taken from the page only while holding-to-talk applies, so it still activates buttons
 * otherwise. Returns stop.
 */
export function listenPushToTalkKeys(hold: HoldControl, win: Listenable): () => void {
  const down = (event: Event) => {
    const key = event as KeyboardEvent;
    if (key.code !== 'Space' || isEditable(key.target) || !hold.active()) return;
    key.preventDefault();
    if (!key.repeat) hold.press();
  };
  const up = (event: Event) => {
    const key = event as KeyboardEvent;
    if (key.code !== 'Space' || isEditable(key.target)) return;
    if (!hold.holding() && !hold.active()) return;
    key.preventDefault();
    hold.release();
  };
  const offs = [listen(win, 'keydown', down), listen(win, 'keyup', up)];
  return () => offs.forEach((off) => off());
}
