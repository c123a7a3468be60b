import type { SharedFrame } from './shared-frame.js';

/** One open `/ws` or `/ws/webrtc` socket of a signed-in user, as the rest of the server sees it. */
export interface ClientSocket {
  readonly id: string;
  readonly userId: string;
  send(message: object): void;
  /** Sends a message serialised once for all the sockets it goes to (the hub's fan-out). */
  sendShared(frame: SharedFrame): void;
  close(code: number, reason: string): void;
}
