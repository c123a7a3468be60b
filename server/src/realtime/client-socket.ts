/** One open `/ws` or `/ws/webrtc` socket of a signed-in user, as the rest of the server sees it. */
export interface ClientSocket {
  readonly id: string;
  readonly userId: string;
  send(message: object): void;
  close(code: number, reason: string): void;
}
