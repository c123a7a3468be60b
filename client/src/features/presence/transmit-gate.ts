/** "toggle" (the spec's default): ONLINE means talking. "hold": ONLINE hears; holding talks. */
export type TalkMode = 'toggle' | 'hold';

/**
 * Where the gate stands while ONLINE and not self-muted. Open: `open`, `holding`, `onAir`.
 * - `open` — Toggle in an open channel: the microphone is open.
 * - `standby` — holding to talk applies (Hold to talk, or a walkie-talkie channel); nothing held.
 * - `holding` — Hold to talk in an open channel, held.
 * - `requestingFloor` — a walkie-talkie channel, held: the floor is asked for, not granted yet.
 * - `onAir` — a walkie-talkie channel, held, and the server granted this tab the floor.
 * - `refused` — a walkie-talkie channel, still held, but the server refused the floor or took it
 *   back (someone else is talking, an admin cut in, the time was up). A late grant still opens.
 */
export type LiveGateState =
  'open' | 'standby' | 'holding' | 'requestingFloor' | 'onAir' | 'refused';

export type GateState =
  /** Not ONLINE: nothing opens the microphone; self-mute and holds are forgotten. */
  | { name: 'offline' }
  /** Mute Self: closed whatever is held. `under` keeps the press going on, for the unmute. */
  | { name: 'muted'; under: LiveGateState }
  | { name: LiveGateState };

/**
 * The transmit gate (spec §4 talking, Hold to talk, the headset button and walkie-talkie floor
 * control; decisions 016 and 023): everything that decides whether the user's voice may go out,
 * given that they hear the channel. A pure machine; the presence reducer feeds it and sends what
 * its changes mean on the wire (`floor_request` / `floor_release`, `start_talking`).
 */
export type TransmitGate = {
  /** The user's choice in Settings, kept per browser. */
  talkMode: TalkMode;
  /** The user opted in to a headset's play/pause button muting or talking (off by default). */
  headsetTalk: boolean;
  /** The selected channel is a walkie-talkie channel: everyone there holds to talk. */
  walkie: boolean;
  state: GateState;
};

export const initialTransmitGate: TransmitGate = {
  talkMode: 'toggle',
  headsetTalk: false,
  walkie: false,
  state: { name: 'offline' },
};

export type GateEvent =
  /** Went ONLINE: by the big button (unmuted) or back after a lost connection (mute kept). */
  | { type: 'go_online'; selfMuted: boolean }
  | { type: 'go_offline' }
  | { type: 'toggle_self_mute' }
  | { type: 'set_talk_mode'; mode: TalkMode }
  | { type: 'set_headset_talk'; on: boolean }
  /** The selected channel is (or is not) a walkie-talkie channel. */
  | { type: 'walkie'; walkie: boolean }
  /** Hold to talk: pressed (true) or released (false, after the release hold). */
  | { type: 'hold'; holding: boolean }
  /** Who holds the floor changed; `mine` when this tab does. */
  | { type: 'floor'; mine: boolean }
  /** The server refused this tab's floor request. */
  | { type: 'floor_denied' };

const OPEN: ReadonlySet<GateState['name']> = new Set(['open', 'holding', 'onAir']);
const HELD: ReadonlySet<LiveGateState> = new Set([
  'holding',
  'requestingFloor',
  'onAir',
  'refused',
]);

/** Hold to talk applies: the user chose it, or the channel is a walkie-talkie channel. */
export function holdsToTalk(gate: Pick<TransmitGate, 'talkMode' | 'walkie'>): boolean {
  return gate.walkie || gate.talkMode === 'hold';
}

/** The gate lets the voice through: `open`, `holding` or `onAir`. */
export function isOpen(gate: TransmitGate): boolean {
  return OPEN.has(gate.state.name);
}

export function isOnline(gate: TransmitGate): boolean {
  return gate.state.name !== 'offline';
}

export function isSelfMuted(gate: TransmitGate): boolean {
  return gate.state.name === 'muted';
}

/** What the press is doing, muted or not; null while offline. */
export function liveState(gate: TransmitGate): LiveGateState | null {
  const { state } = gate;
  if (state.name === 'offline') return null;
  return state.name === 'muted' ? state.under : state.name;
}

/** A hold is going on (button, Space or a latched headset), muted or not. */
export function isHeld(gate: TransmitGate): boolean {
  const live = liveState(gate);
  return live !== null && HELD.has(live);
}

/** This tab holds the walkie-talkie channel's floor (even while muted). */
export function hasFloor(gate: TransmitGate): boolean {
  return liveState(gate) === 'onAir';
}

/** Where nothing is held: open in Toggle in an open channel, else waiting for a hold. */
function rest(gate: Pick<TransmitGate, 'talkMode' | 'walkie'>): LiveGateState {
  return holdsToTalk(gate) ? 'standby' : 'open';
}

/** The press part of an event, on the state under a mute as much as on a live one. */
function press(gate: TransmitGate, event: GateEvent): LiveGateState | null {
  const live = liveState(gate);
  if (live === null) return null;
  switch (event.type) {
    case 'hold':
      if (!holdsToTalk(gate)) return live;
      if (!event.holding) return HELD.has(live) ? 'standby' : live;
      if (live !== 'standby') return live;
      return gate.walkie ? 'requestingFloor' : 'holding';
    case 'floor':
      if (event.mine) return live === 'requestingFloor' || live === 'refused' ? 'onAir' : live;
      return live === 'onAir' ? 'refused' : live;
    case 'floor_denied':
      return live === 'requestingFloor' ? 'refused' : live;
    default:
      return live;
  }
}

function withLive(gate: TransmitGate, live: LiveGateState): TransmitGate {
  if (live === liveState(gate)) return gate;
  const state: GateState = isSelfMuted(gate) ? { name: 'muted', under: live } : { name: live };
  return { ...gate, state };
}

/** One step of the gate; a no-op returns the very same object (nothing re-renders). */
export function stepGate(gate: TransmitGate, event: GateEvent): TransmitGate {
  switch (event.type) {
    case 'go_online': {
      if (isOnline(gate)) return gate;
      const live = rest(gate);
      return {
        ...gate,
        state: event.selfMuted ? { name: 'muted', under: live } : { name: live },
      };
    }
    case 'go_offline':
      return isOnline(gate) ? { ...gate, state: { name: 'offline' } } : gate;
    case 'toggle_self_mute': {
      const { state } = gate;
      if (state.name === 'offline') return gate;
      if (state.name === 'muted') return { ...gate, state: { name: state.under } };
      return { ...gate, state: { name: 'muted', under: state.name } };
    }
    case 'set_headset_talk':
      return event.on === gate.headsetTalk ? gate : { ...gate, headsetTalk: event.on };
    case 'set_talk_mode': {
      // A change of mode ends any hold (and gives back a floor with it).
      const changed = event.mode === gate.talkMode ? gate : { ...gate, talkMode: event.mode };
      return isOnline(changed) ? withLive(changed, rest(changed)) : changed;
    }
    case 'walkie': {
      if (event.walkie === gate.walkie) return gate;
      const changed = { ...gate, walkie: event.walkie };
      return isOnline(changed) ? withLive(changed, rest(changed)) : changed;
    }
    case 'hold':
    case 'floor':
    case 'floor_denied': {
      const live = press(gate, event);
      return live === null ? gate : withLive(gate, live);
    }
  }
}
