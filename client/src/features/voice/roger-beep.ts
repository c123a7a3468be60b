import { wantsToTransmit, type PresenceState } from '../presence/presence-state';
import { isHeld } from '../presence/transmit-gate';

/**
 * Whether a change of presence is the talker letting go of hold-to-talk (the roger beep, decision
 * 022): they were on the air holding, and now the gate waits for the next hold (still online).
 * Going offline, muting oneself or a toggle-mode microphone closing is no "over", so no beep.
 */
export function isTalkRelease(before: PresenceState, after: PresenceState): boolean {
  const wasOnAir = isHeld(before.gate) && wantsToTransmit(before) && before.voiceOnAir;
  return wasOnAir && after.gate.state === 'standby';
}
