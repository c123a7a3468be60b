import type { TalkMode } from './online-state';
import { presenceStore } from './presence-store';

const KEY = 'chirp.talkMode';

/** Spec default is "toggle"; "hold" is the walkie-talkie habit. Kept per browser. */
export function loadTalkMode(storage: Pick<Storage, 'getItem'> = localStorage): TalkMode {
  return storage.getItem(KEY) === 'hold' ? 'hold' : 'toggle';
}

export function setTalkMode(mode: TalkMode, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(KEY, mode);
  presenceStore.dispatch({ type: 'set_talk_mode', mode });
}

/** How long transmission continues after the key or button is released, so last words are not cut. */
export const RELEASE_HOLD_MS = 300;

/**
 * Press/release with a release hold: a release schedules the stop; a new press within the hold
 * cancels it, so quick re-presses never chop the audio.
 */
export class HoldGesture {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pressed = false;

  constructor(
    private readonly onChange: (holding: boolean) => void,
    private readonly releaseMs = RELEASE_HOLD_MS,
  ) {}

  press(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pressed) return;
    this.pressed = true;
    this.onChange(true);
  }

  release(): void {
    if (!this.pressed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pressed = false;
      this.onChange(false);
    }, this.releaseMs);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pressed) this.onChange(false);
    this.pressed = false;
  }
}
