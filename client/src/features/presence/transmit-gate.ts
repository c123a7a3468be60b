/** "toggle" (the spec's default): ONLINE means talking. "hold": ONLINE hears; holding talks. */
export type TalkMode = 'toggle' | 'hold';

/**
 * What the press is doing. Open (the voice may go out): `open`, `holding`, `onAir`.
 * - `offline` — not ONLINE: nothing opens the microphone; holds are forgotten.
 * - `open` — Toggle in an open channel.
 * - `standby` — holding to talk applies (Hold to talk, or a walkie-talkie channel); nothing held.
 * - `holding` — Hold to talk in an open channel, held.
 * - `requestingFloor` — a walkie-talkie channel, held: the floor is asked for, not granted yet.
 * - `onAir` — a walkie-talkie channel, held, and the server granted this tab the floor.
 * - `refused` — a walkie-talkie channel, still held, but the server refused the floor or took it
 *   back (someone else is talking, an admin cut in, the time was up). A late grant still opens.
 */
export type GateState =
  'offline' | 'open' | 'standby' | 'holding' | 'requestingFloor' | 'onAir' | 'refused';

/**
 * Mute Self, beside the press: `muted` closes the gate whatever the press is doing, and the press
 * goes on under it (unmuting while still held opens). Back to `live` when the user goes offline.
 */
export type MuteState = 'live' | 'muted';

/**
 * The transmit gate (spec §4 talking, Hold to talk, the headset button and walkie-talkie floor
 * control; decisions 016 and 023): everything that decides whether the user's voice may go out,
 * given that they hear the channel. A pure machine of two regions, the press and Mute Self; the
 * presence reducer feeds it and sends what its changes mean on the wire (`floor_request`,
 * `floor_release`, `start_talking`).
 */
export type TransmitGate = {
  /** The user's choice in Settings, kept per browser. */
  talkMode: TalkMode;
  /** The user opted in to a headset's play/pause button muting or talking (off by default). */
  headsetTalk: boolean;
  /** The selected channel is a walkie-talkie channel: everyone there holds to talk. */
  walkie: boolean;
  state: GateState;
  mute: MuteState;
};

export const initialTransmitGate: TransmitGate = {
  talkMode: 'toggle',
  headsetTalk: false,
  walkie: false,
  state: 'offline',
  mute: 'live',
};

export type GateEvent =
  /** Went ONLINE: by the big button (live) or back after a lost connection (mute kept). */
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

const OPEN: ReadonlySet<GateState> = new Set(['open', 'holding', 'onAir']);
const HELD: ReadonlySet<GateState> = new Set(['holding', 'requestingFloor', 'onAir', 'refused']);

/** Hold to talk applies: the user chose it, or the channel is a walkie-talkie channel. */
export function holdsToTalk(gate: Pick<TransmitGate, 'talkMode' | 'walkie'>): boolean {
  return gate.walkie || gate.talkMode === 'hold';
}

/** The gate lets the voice through: `open`, `holding` or `onAir`, and not muted. */
export function isOpen(gate: TransmitGate): boolean {
  return gate.mute === 'live' && OPEN.has(gate.state);
}

export function isSelfMuted(gate: TransmitGate): boolean {
  return gate.mute === 'muted';
}

/** A hold is going on (button, Space or a latched headset), muted or not. */
export function isHeld(gate: TransmitGate): boolean {
  return HELD.has(gate.state);
}

/** This tab holds the walkie-talkie channel's floor (even while muted). */
export function hasFloor(gate: TransmitGate): boolean {
  return gate.state === 'onAir';
}

/** Where nothing is held: open in Toggle in an open channel, else waiting for a hold. */
function rest(gate: Pick<TransmitGate, 'talkMode' | 'walkie'>): GateState {
  return holdsToTalk(gate) ? 'standby' : 'open';
}

/** Where a hold, a release or news of the floor takes the press. */
function press(gate: TransmitGate, event: GateEvent): GateState {
  const { state } = gate;
  switch (event.type) {
    case 'hold':
      if (!holdsToTalk(gate)) return state;
      if (!event.holding) return HELD.has(state) ? 'standby' : state;
      if (state !== 'standby') return state;
      return gate.walkie ? 'requestingFloor' : 'holding';
    case 'floor':
      if (event.mine) return state === 'requestingFloor' || state === 'refused' ? 'onAir' : state;
      return state === 'onAir' ? 'refused' : state;
    case 'floor_denied':
      return state === 'requestingFloor' ? 'refused' : state;
    default:
      return state;
  }
}

/** Settles the press after a change of talk mode: it ends any hold (and gives back a floor). */
function changeMode(gate: TransmitGate): TransmitGate {
  return gate.state === 'offline' ? gate : { ...gate, state: rest(gate) };
}

/** One step of the gate; a no-op returns the very same object (nothing re-renders). */
export function stepGate(gate: TransmitGate, event: GateEvent): TransmitGate {
  switch (event.type) {
    case 'go_online':
      if (gate.state !== 'offline') return gate;
      return { ...gate, state: rest(gate), mute: event.selfMuted ? 'muted' : 'live' };
    case 'go_offline':
      return gate.state === 'offline' ? gate : { ...gate, state: 'offline', mute: 'live' };
    case 'toggle_self_mute':
      if (gate.state === 'offline') return gate;
      return { ...gate, mute: gate.mute === 'muted' ? 'live' : 'muted' };
    case 'set_headset_talk':
      return event.on === gate.headsetTalk ? gate : { ...gate, headsetTalk: event.on };
    case 'set_talk_mode':
      return changeMode(event.mode === gate.talkMode ? gate : { ...gate, talkMode: event.mode });
    case 'walkie':
      return event.walkie === gate.walkie ? gate : changeMode({ ...gate, walkie: event.walkie });
    case 'hold':
    case 'floor':
    case 'floor_denied': {
      const state = press(gate, event);
      return state === gate.state ? gate : { ...gate, state };
    }
  }
}
