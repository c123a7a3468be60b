import type { RtpPacket } from 'werift';

export type ServerKind = 'built-in' | 'livekit' | 'janus';

/** Where and as whom one swarm client joins; plain data, so it crosses IPC. */
export type JoinTarget =
  | { server: 'built-in'; url: string; token: string }
  | { server: 'livekit'; url: string; token: string }
  | { server: 'janus'; url: string; room: number; feed?: number };

/** One headless participant of any of the three servers. */
export interface SwarmClient {
  /** Janus names a publisher's stream by this id; subscribers ask for it. */
  readonly feed?: number | undefined;
  sendRtp(packet: RtpPacket): void;
  close(): Promise<void>;
  /** Connection states, for listeners that never heard anything. */
  describe(): string;
  /** The media connection's state (the subscriber connection for LiveKit). */
  readonly connectionState: string;
}
