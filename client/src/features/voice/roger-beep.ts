import { holdsToTalk, wantsToTransmit, type OnlineState } from '../presence/online-state';

/**
 * Whether a change of presence is the talker letting go of hold-to-talk (issue 17 roger beep):
 * they were on the air holding, and now they are not holding but still online. Going offline,
 * muting oneself or a toggle-mode microphone closing is no "over", so no beep.
 */
export function isTalkRelease(before: OnlineState, after: OnlineState): boolean {
  return (
    before.holding &&
    wantsToTransmit(before) &&
    before.voiceOnAir &&
    !after.holding &&
    after.online &&
    holdsToTalk(after)
  );
}
