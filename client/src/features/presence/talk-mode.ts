import type { TalkMode } from './transmit-gate';
import { presenceStore } from './presence-store';

const MODE_KEY = 'chirp.talkMode';
const HEADSET_KEY = 'chirp.headsetTalk';

function read(storage: Pick<Storage, 'getItem'>, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    // Storage disabled (private mode): defaults apply.
    return null;
  }
}

function write(storage: Pick<Storage, 'setItem'>, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}

/** Spec default is "toggle"; "hold" is the walkie-talkie habit. Kept per browser. */
export function loadTalkMode(storage: Pick<Storage, 'getItem'> = localStorage): TalkMode {
  return read(storage, MODE_KEY) === 'hold' ? 'hold' : 'toggle';
}

export function setTalkMode(
  mode: TalkMode,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  write(storage, MODE_KEY, mode);
  presenceStore.dispatch({ type: 'set_talk_mode', mode });
}

/**
 * Whether a headset's play/pause button may mute, unmute or talk. Off unless the user turns it on
 * in Settings: a stray press (taking headphones off, another app's media key) must never open the
 * microphone in open talk mode.
 */
export function loadHeadsetTalk(storage: Pick<Storage, 'getItem'> = localStorage): boolean {
  return read(storage, HEADSET_KEY) === 'on';
}

export function setHeadsetTalk(
  on: boolean,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  write(storage, HEADSET_KEY, on ? 'on' : 'off');
  presenceStore.dispatch({ type: 'set_headset_talk', on });
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
