import {
  PEER_RECONNECT_DELAY_MS,
  signalServerMessageSchema,
  WEBRTC_WS_PATH,
  type SignalClientMessage,
  type SignalServerMessage,
} from '../../../../protocol/calls';

export function webrtcSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WEBRTC_WS_PATH}`;
}

/** Close codes that mean the call is over: the room closed, or we may no longer join it. */
const ROOM_GONE = new Set([1000, 4401, 4403]);

export interface SignallingEvents {
  message(message: SignalServerMessage): void;
  /** The server closed the room (call ended) or refused us: there is nothing to reconnect to. */
  roomGone(): void;
}

/**
 * The `/ws/webrtc` socket of one call: joins the room on every (re)connect, so after a network drop
 * the other side hears `peer_joined` again and the caller renegotiates. Reconnects after 3 s.
 */
export class SignallingSocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly roomName: string,
    private readonly userId: string,
    private readonly events: SignallingEvents,
    private readonly url = webrtcSocketUrl(window.location),
  ) {}

  open(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () =>
      this.send({ type: 'join_room', roomName: this.roomName, userId: this.userId });
    ws.onmessage = (event: MessageEvent) => {
      const parsed = signalServerMessageSchema.safeParse(parseJson(event.data));
      if (parsed.success) this.events.message(parsed.data);
      else console.error('Malformed signalling message ignored', event.data);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      if (ROOM_GONE.has(event.code)) {
        this.events.roomGone();
        return;
      }
      this.retry = setTimeout(() => this.open(), PEER_RECONNECT_DELAY_MS);
    };
  }

  send(message: SignalClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.ws?.close(1000, 'left the call');
    this.ws = null;
  }
}

function parseJson(data: unknown): unknown {
  try {
    return typeof data === 'string' ? JSON.parse(data) : null;
  } catch {
    return null;
  }
}
