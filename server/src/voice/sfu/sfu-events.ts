/** What the SFU tells whoever composes it (presence, talking indicators, metering, recording). */
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

/**
 * The tap: one publisher's packet that went through the forwarding gate (not held: not admin-muted,
 * and the floor holder's in a walkie-talkie room) and on to the room's listeners.
 */
export interface SfuForwardedPacket {
  roomName: string;
  /** The publisher. */
  userId: string;
  ssrc: number;
  /** RTP timestamp (48 kHz for Opus). */
  timestamp: number;
  /** The Opus payload; it belongs to the network layer: copy what is kept. */
  payload: Buffer;
}

/** A walkie-talkie room's floor holder changed (null: the floor is free, or the room is open). */
export interface SfuFloorEvent {
  roomName: string;
  holderId: string | null;
  /** When the new holder's hold ends at the latest (epoch ms), when known. */
  expiresAt: number | null;
}

export interface SfuRoomEvent {
  roomName: string;
}

export interface SfuEventMap {
  participantJoined: SfuConnectionEvent;
  participantLeft: SfuParticipantLeftEvent;
  speakingChanged: SfuSpeakingEvent;
  packetForwarded: SfuForwardedPacket;
  floorChanged: SfuFloorEvent;
  /** Closed by `closeRoom` (the channel is gone), not merely emptied. */
  roomClosed: SfuRoomEvent;
}

type Listener<T> = (event: T) => void;

/** A typed, synchronous emitter; a throwing listener is reported and does not stop the others. */
export class SfuEvents {
  private readonly listeners: { [K in keyof SfuEventMap]: Set<Listener<SfuEventMap[K]>> } = {
    participantJoined: new Set(),
    participantLeft: new Set(),
    speakingChanged: new Set(),
    packetForwarded: new Set(),
    floorChanged: new Set(),
    roomClosed: new Set(),
  };

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Returns the unsubscribe function. */
  on<K extends keyof SfuEventMap>(name: K, listener: Listener<SfuEventMap[K]>): () => void {
    this.listeners[name].add(listener);
    return () => {
      this.listeners[name].delete(listener);
    };
  }

  /** Whether anyone listens (the tap builds no event per packet for nobody). */
  has(name: keyof SfuEventMap): boolean {
    return this.listeners[name].size > 0;
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
