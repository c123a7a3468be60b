import type { FinishedTransmission } from '../../transmissions/transmission-recording.js';

/** What the rest of the server learns from the SFU (presence, talking indicators, metering). */
export interface SfuParticipantEvent {
  roomName: string;
  identity: string;
  userId: string;
}

/** A connection joined or left the room. */
export interface SfuConnectionEvent extends SfuParticipantEvent {
  /** This connection's own id: a reconnect with the same identity is another connection. */
  connectionId: string;
}

export interface SfuParticipantLeftEvent extends SfuConnectionEvent {
  reason: string;
}

export interface SfuSpeakingEvent extends SfuParticipantEvent {
  speaking: boolean;
  /** 0..1, estimated from the talker's packets. */
  level: number;
}

/** Walkie-talkie: the floor moved on and the holder's transmission, as Ogg Opus, is complete. */
export interface SfuTransmissionEvent {
  roomName: string;
  transmission: FinishedTransmission;
  /** Who else was in the room when it ended: they heard it live. */
  heardBy: string[];
}

export interface SfuEventMap {
  participantJoined: SfuConnectionEvent;
  participantLeft: SfuParticipantLeftEvent;
  speakingChanged: SfuSpeakingEvent;
  transmissionRecorded: SfuTransmissionEvent;
}

type Listener<T> = (event: T) => void;

/** A typed, synchronous emitter; a throwing listener is reported and does not stop the others. */
export class SfuEvents {
  private readonly listeners: { [K in keyof SfuEventMap]: Set<Listener<SfuEventMap[K]>> } = {
    participantJoined: new Set(),
    participantLeft: new Set(),
    speakingChanged: new Set(),
    transmissionRecorded: new Set(),
  };

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Returns the unsubscribe function. */
  on<K extends keyof SfuEventMap>(name: K, listener: Listener<SfuEventMap[K]>): () => void {
    this.listeners[name].add(listener);
    return () => {
      this.listeners[name].delete(listener);
    };
  }

  emit<K extends keyof SfuEventMap>(name: K, event: SfuEventMap[K]): void {
    for (const listener of this.listeners[name]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
