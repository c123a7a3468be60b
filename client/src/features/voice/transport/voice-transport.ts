/**
 * What the voice feature needs from a media provider, whichever carries the audio: the built-in
 * SFU (`EmbeddedSfuTransport`) or, later, LiveKit. Framework-free, so React hooks stay thin
 * subscribers and the LiveKit implementation can slide in behind the same shape.
 */

/** The spec's room states (§4 "Voice room connection"). */
export type VoiceRoomState =
  'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'signalReconnecting';

export interface VoiceParticipant {
  /** `<userId>-<epoch ms>-<random>`, unique per connection. */
  identity: string;
  userId: string;
  name: string;
}

export interface VoiceSpeakingChange {
  participant: VoiceParticipant;
  speaking: boolean;
  /** 0..1 */
  level: number;
}

export type VoiceDisconnectReason =
  | 'client'
  | 'unauthorized'
  | 'unsupported_version'
  | 'kicked'
  | 'room_closed'
  | 'replaced'
  | 'connection_lost';

export interface VoiceTransportEvents {
  stateChanged: VoiceRoomState;
  participantJoined: VoiceParticipant;
  participantLeft: VoiceParticipant;
  speakingChanged: VoiceSpeakingChange;
  /** An admin muted or unmuted a participant; their audio stops at the server as well. */
  participantMuted: { participant: VoiceParticipant; muted: boolean };
  /** The connection ended for good (no automatic recovery left); state is `disconnected`. */
  disconnected: { reason: VoiceDisconnectReason };
}

export type VoiceTransportErrorCode =
  | 'unauthorized'
  | 'unsupported_version'
  | 'timeout'
  | 'network'
  | 'failed'
  /** Spec §6: publishing without the publish right (admin-muted token) fails like LiveKit's 403. */
  | 'forbidden';

export class VoiceTransportError extends Error {
  override readonly name = 'VoiceTransportError';
  constructor(
    readonly code: VoiceTransportErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface VoiceTransport {
  readonly state: VoiceRoomState;
  readonly localParticipant: VoiceParticipant | undefined;
  readonly remoteParticipants: readonly VoiceParticipant[];
  /** Resolves once media can flow; rejects with `VoiceTransportError` (spec §9: 15 s timeout). */
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  /**
   * Turns the microphone on or off; talking never waits for a renegotiation or a capture. The
   * built-in SFU negotiates its publish slot once per connection and keeps the capture live: on
   * puts the track in the slot, off takes it out, so no RTP at all goes out between talks
   * (decision 059). LiveKit mutes its published track. Rejects with the browser's error if
   * capture is denied.
   */
  setMicrophoneEnabled(on: boolean): Promise<void>;
  /**
   * An SOS countdown (decision 054): while armed, the microphone is published muted as soon as the
   * voice server allows it, so opening it for the SOS is an unmute. Unarmed, a capture not yet
   * published is let go; one published stays (the server takes it back with its right). Only
   * LiveKit needs it: the built-in SFU forwards a new holder's open stream at once.
   */
  armMicrophone?(armed: boolean): void;
  readonly isMicrophoneEnabled: boolean;
  /** Returns the unsubscribe function. */
  on<K extends keyof VoiceTransportEvents>(
    name: K,
    listener: (event: VoiceTransportEvents[K]) => void,
  ): () => void;
}
