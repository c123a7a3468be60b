import { isListening } from '../presence/online-state';
import { wantsToTransmit } from '../presence/presence-state';
import type { PresenceStore } from '../presence/presence-store';
import type { RoomTarget } from './room-connection/room-machine';
import type { VoiceRoomView } from './room-connection/room-controller';
import { microphoneOverride } from './microphone-override';
import { isTalkRelease } from './roger-beep';
import { ROGER_BEEP, toneForChange, type Tone } from './tones';

/** The room controller as the runtime drives it. */
export interface VoiceRoomDriver {
  configure(target: RoomTarget | null): void;
  setMicrophoneEnabled(on: boolean): Promise<void>;
  reportMicrophoneFailure(message: string): void;
  getView(): VoiceRoomView;
  subscribe(listener: () => void): () => void;
}

export type VoiceRuntimeDeps = {
  presence: PresenceStore;
  room: VoiceRoomDriver;
  user: { id: string; name: string };
  /** Mute Channel is reset when the user goes offline, so the next ONLINE hears the channel. */
  setChannelMuted(muted: boolean): void;
  toast(toast: { title: string; description: string; variant: 'destructive' }): void;
  playTone(tone: Tone): void;
  microphoneErrorMessage(error: unknown): string;
  /** The user's roger beep switch, read at each release; off when not given. */
  rogerBeep?: () => boolean;
};

/**
 * The channel's voice, above the routes and without React (DESIGN §3): the room is connected
 * exactly while the user listens (ONLINE in a channel on an open socket, not idle, no call); the
 * microphone follows the user's wish to transmit while the room is connected; whether the voice
 * can really be on the air goes back to presence, so "talking" is never claimed for a refused
 * room or microphone. Tones mark the room connecting and going, and (opt-in) a roger beep the end
 * of a hold-to-talk. Returns stop (sign-out).
 */
export function startVoiceRuntime(deps: VoiceRuntimeDeps): () => void {
  const { presence, room, user } = deps;
  let wasConnected = room.getView().connected;
  /** The microphone state last asked of the room, per connection. */
  let requested: boolean | null = null;
  let microphoneFailed = false;
  /** The room was tried again for the SOS on the air now. */
  let sosRetried = false;
  let wasOnline = presence.state.online;
  let before = presence.state;
  let stopped = false;

  const applyMicrophone = (on: boolean) => {
    requested = on;
    room.setMicrophoneEnabled(on).then(
      () => {
        if (stopped || requested !== on || !on) return;
        microphoneFailed = false;
        sync();
      },
      (error: unknown) => {
        if (stopped || requested !== on) return;
        const message = deps.microphoneErrorMessage(error);
        console.warn('voice: microphone failed', error);
        microphoneFailed = true;
        room.reportMicrophoneFailure(message);
        deps.toast({ title: 'Microphone Error', description: message, variant: 'destructive' });
        sync();
      },
    );
  };

  let syncing = false;
  let again = false;
  const sync = () => {
    if (stopped) return;
    // Listeners run while we dispatch; one pass at a time, repeated while something moved.
    if (syncing) {
      again = true;
      return;
    }
    syncing = true;
    try {
      do {
        again = false;
        step();
      } while (again);
    } finally {
      syncing = false;
    }
  };

  const step = () => {
    const state = presence.state;
    const channelId = state.channelId;
    // An SOS is admitted even over the free allowance: a room refused before it is tried again.
    const sos = microphoneOverride.isOpen();
    if (sos && !sosRetried && room.getView().phase === 'stopped') {
      sosRetried = true;
      room.configure(null);
    }
    if (!sos) sosRetried = false;
    room.configure(
      isListening(state) && channelId !== null
        ? { channelId, userId: user.id, userName: user.name }
        : null,
    );

    const { connected } = room.getView();
    if (connected !== wasConnected) {
      const tone = toneForChange(wasConnected, connected);
      wasConnected = connected;
      // Every connection captures anew: a microphone refused before may be allowed now.
      requested = null;
      microphoneFailed = false;
      if (tone) deps.playTone(tone);
    }
    if (connected) {
      // An SOS opens the microphone whatever Mute Self or the press say (decision 050).
      const wanted = wantsToTransmit(state) || microphoneOverride.isOpen();
      if (wanted !== requested) applyMicrophone(wanted);
    }
    presence.dispatch({ type: 'voice', onAir: connected && !microphoneFailed });

    if (wasOnline && !state.online) deps.setChannelMuted(false);
    wasOnline = state.online;
    if (connected && isTalkRelease(before, state) && deps.rogerBeep?.()) deps.playTone(ROGER_BEEP);
    before = state;
  };

  const offs = [presence.subscribe(sync), room.subscribe(sync), microphoneOverride.subscribe(sync)];
  sync();
  return () => {
    stopped = true;
    offs.forEach((off) => off());
    room.configure(null);
    presence.dispatch({ type: 'voice', onAir: false });
  };
}
