import { WS_PATH } from '../../../../protocol/sockets';
import { PROTOCOL_VERSION } from '../../../../protocol/version';

/** Spec §4 "Channel socket connection state". */
export type SocketState = 'connecting' | 'connected' | 'disconnected';

export type MessageHandler = (message: Record<string, unknown>) => void;

/** Reconnect delays: 1 s doubling to 15 s, with jitter so a restarted server is not stampeded. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(15_000, 1000 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WS_PATH}?v=${PROTOCOL_VERSION}`;
}

/**
 * The one `/ws` connection of a signed-in tab, shared by presence and calls. Framework-free: React
 * hooks subscribe to it. Reconnects by itself with backoff until `close()`. Nothing is sent unless
 * the socket is open (spec §4: talking can only be started while the socket is open).
 */
export class SocketConnection {
  private ws: WebSocket | null = null;
  private current: SocketState = 'disconnected';
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = true;
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  private readonly stateListeners = new Set<(state: SocketState) => void>();

  constructor(
    private readonly url: string,
    private readonly createSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
  ) {}

  get state(): SocketState {
    return this.current;
  }

  open(): void {
    if (!this.closed) return;
    this.closed = false;
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'closed by the app');
    this.setState('disconnected');
  }

  /** Sends when open; returns false (and sends nothing) otherwise. */
  send(message: { type: string } & Record<string, unknown>): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  on(type: string, handler: MessageHandler): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onState(listener: (state: SocketState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private connect(): void {
    this.setState('connecting');
    const ws = this.createSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.setState('connected');
    };
    ws.onmessage = (event: MessageEvent) => {
      if (this.ws !== ws) return;
      this.dispatch(event.data);
    };
    ws.onerror = () => console.error('Channel socket error');
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.setState('disconnected');
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.connect(), reconnectDelay(this.attempt++));
    };
  }

  private dispatch(data: unknown): void {
    let message: unknown;
    try {
      message = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      message = null;
    }
    if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') {
      console.error('Malformed socket message ignored', data);
      return;
    }
    const typed = message as Record<string, unknown> & { type: string };
    for (const handler of this.handlers.get(typed.type) ?? []) handler(typed);
  }

  private setState(state: SocketState): void {
    if (this.current === state) return;
    this.current = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
