import type { FloorHolder } from '../../../../protocol/floor';
import type { GateState } from '../presence/transmit-gate';

/**
 * What the talk button shows:
 * - `off` — nothing to talk in (OFFLINE, in a call, no live connection); disabled.
 * - `ready` — press and hold to talk (the floor is clear in a walkie-talkie channel).
 * - `requesting` — held, the floor asked for and not granted yet.
 * - `live` — this tab's voice is going out (granted the floor, or held in an open channel).
 * - `busy` — someone else holds the walkie-talkie channel's floor.
 */
export type TalkButtonState = 'off' | 'ready' | 'requesting' | 'live' | 'busy';

export type TalkButtonInput = {
  /** The talk button may be pressed at all: ONLINE in a channel, no call, socket open. */
  usable: boolean;
  gate: GateState;
  walkie: boolean;
  holder: FloorHolder | null;
  userId: string | null;
};

export function talkButtonState({
  usable,
  gate,
  walkie,
  holder,
  userId,
}: TalkButtonInput): TalkButtonState {
  if (!usable || gate === 'offline') return 'off';
  if (gate === 'onAir' || gate === 'holding') return 'live';
  if (walkie && holder !== null && holder.id !== userId) return 'busy';
  if (gate === 'requestingFloor') return 'requesting';
  return 'ready';
}
