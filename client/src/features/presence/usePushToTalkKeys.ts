import { useEffect } from 'react';
import { holdToTalkActive, pressToTalk, releaseToTalk } from './hold-control';
import { presenceStore } from './presence-store';

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * Hold to talk with the Space key while the page has focus (not while typing). Space is taken from
 * the page only while holding-to-talk applies, so it still activates buttons otherwise.
 */
export function usePushToTalkKeys(): void {
  useEffect(() => {
    const down = (event: KeyboardEvent) => {
      if (event.code !== 'Space' || isEditable(event.target) || !holdToTalkActive()) return;
      event.preventDefault();
      if (!event.repeat) pressToTalk();
    };
    const up = (event: KeyboardEvent) => {
      if (event.code !== 'Space' || isEditable(event.target)) return;
      if (!presenceStore.state.holding && !holdToTalkActive()) return;
      event.preventDefault();
      releaseToTalk();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, []);
}
