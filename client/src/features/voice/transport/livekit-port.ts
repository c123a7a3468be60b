import {
  audioDeviceChoice,
  withChosenMicrophone,
  type AudioDeviceChoice,
} from '../../voice-preferences/audio-devices';
import type { VoiceDisconnectReason, VoiceRoomState } from './voice-transport';

/**
 * The narrow slice of `livekit-client` that `LiveKitTransport` needs, so the transport's logic is
 * unit-tested with a fake room. `livekit-room.ts` implements it over the real `Room`, passing the
 * spec §9 room options below to `new Room(...)`.
 */
export type LiveKitRoomOptions = {
  adaptiveStream: true;
  dynacast: true;
  audioCaptureDefaults: {
    echoCancellation: true;
    noiseSuppression: true;
    autoGainControl: true;
    /** The microphone chosen in Settings; the system default when absent. */
    deviceId?: ConstrainDOMString;
  };
  /** The speaker chosen in Settings; the system default when absent. */
  audioOutput?: { deviceId: string };
};

export const LIVEKIT_ROOM_OPTIONS: LiveKitRoomOptions = {
  adaptiveStream: true,
  dynacast: true,
  audioCaptureDefaults: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

/** The room options with the microphone and speaker chosen in Settings (read at each connection). */
export function liveKitRoomOptions(choice: AudioDeviceChoice = audioDeviceChoice()): LiveKitRoomOptions {
  const { deviceId } = withChosenMicrophone({}, choice.microphoneId);
  return {
    ...LIVEKIT_ROOM_OPTIONS,
    audioCaptureDefaults: {
      ...LIVEKIT_ROOM_OPTIONS.audioCaptureDefaults,
      ...(deviceId ? { deviceId } : {}),
    },
    ...(choice.speakerId ? { audioOutput: { deviceId: choice.speakerId } } : {}),
  };
}

export interface LiveKitParticipantLike {
  identity: string;
  name?: string;
}

/** Room events, already narrowed to audio; LiveKit's ConnectionState strings equal the spec's. */
export interface LiveKitRoomHandlers {
  connectionStateChanged(state: VoiceRoomState): void;
  participantConnected(participant: LiveKitParticipantLike): void;
  participantDisconnected(participant: LiveKitParticipantLike): void;
  /** Loudest first; includes the local participant. */
  activeSpeakersChanged(speakers: readonly LiveKitParticipantLike[]): void;
  audioTrackSubscribed(
    track: MediaStreamTrack,
    trackSid: string,
    participant: LiveKitParticipantLike,
  ): void;
  audioTrackUnsubscribed(trackSid: string, participant: LiveKitParticipantLike): void;
  /** The adapter maps LiveKit's DisconnectReason (CLIENT_INITIATED → 'client', ...). */
  disconnected(reason: VoiceDisconnectReason): void;
  /**
   * The local participant's publish right changed (an admin mute revokes it through RoomService; the
   * server then unpublishes the microphone, and an unmute grants it back).
   */
  publishPermissionChanged(canPublish: boolean): void;
}

export interface LiveKitRoomPort {
  readonly localParticipant: LiveKitParticipantLike | undefined;
  readonly remoteParticipants: readonly LiveKitParticipantLike[];
  /** `room.connect(url, token)`; rejects with LiveKit's ConnectionError. */
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  /**
   * `room.localParticipant.setMicrophoneEnabled(on)`; turning it on publishes the prepared
   * microphone when there is one.
   */
  setMicrophoneEnabled(on: boolean): Promise<void>;
  /**
   * Captures the microphone ahead of its publish right (nothing is sent), so the publish that
   * follows the right does not wait for the capture too. Never rejects: a capture that fails now
   * fails again, and is reported, when the microphone is turned on.
   */
  prepareMicrophone(): void;
  /** Stops a prepared microphone that was not published (its right never came). */
  releasePreparedMicrophone(): void;
  /**
   * Publishes the microphone muted (the prepared capture when there is one) unless it is published
   * already: turning it on later is an unmute, with no new publication for listeners to negotiate
   * (an SOS countdown, decision 054). Rejects when LiveKit refuses the publication.
   */
  publishMutedMicrophone(): Promise<void>;
  /** `room.localParticipant.permissions?.canPublish` (withheld while admin-muted). */
  canPublish(): boolean;
  /** Subscribes every handler; returns the function that unsubscribes them. */
  subscribe(handlers: LiveKitRoomHandlers): () => void;
}

export type CreateLiveKitRoom = (options: LiveKitRoomOptions) => LiveKitRoomPort;
