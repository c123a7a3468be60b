import { presenceStore } from './presence-store';
import { HoldGesture } from './talk-mode';

/** The tab's one hold gesture: the big button, the Space key and a headset all drive it. */
const gesture = new HoldGesture((holding) => presenceStore.dispatch({ type: 'hold', holding }));

export const pressToTalk = () => gesture.press();
export const releaseToTalk = () => gesture.release();
export const cancelHold = () => gesture.cancel();

/** True when holding-to-talk applies right now: online in hold mode. */
export function holdToTalkActive(): boolean {
  const { online, talkMode } = presenceStore.state;
  return online && talkMode === 'hold';
}
