/** Spec §4 "Channel socket connection state". */
export type SocketState = 'connecting' | 'connected' | 'disconnected';

/** Any message on the wire: a `type` and its fields. */
export type WireMessage = { type: string };

/**
 * Reconnect delays, with ±25 % jitter so a restarted server is not stampeded. After a lost
 * connection (no close code from the server: a crash, a restart, the network) every second, so the
 * user is back within seconds of the server answering (decision 021); refused connections cost a
 * down server nothing, and the jitter spreads the tabs once it answers. After the server closed the socket on purpose (a 4xxx code, or 1008
 * for flooding: decisions 004 and 016) 1 s doubling to 15 s.
 */
export function reconnectDelay(
  attempt: number,
  random: () => number = Math.random,
  cause: 'lost' | 'refused' = 'refused',
): number {
  const cap = cause === 'lost' ? 1000 : 15_000;
  const base = Math.min(cap, 1000 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/** Close codes a server sends on purpose; anything else is a connection that was lost. */
const isDeliberateClose = (code: number | undefined) =>
  code !== undefined && (code === 1008 || (code >= 4000 && code < 5000));

/** Where the browser says the network came back (`window`); absent outside a browser. */
export type NetworkEvents = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export type SocketConnectionOptions<In extends WireMessage> = {
  /** Where to connect, read at every (re)connect. */
  url: () => string;
  /** Turns one received JSON value into a known message, or null when it is malformed. */
  parse: (data: unknown) => In | null;
  createSocket?: (url: string) => WebSocket;
  /** The `online` event here reconnects at once instead of at the next retry (decision 021). */
  network?: () => NetworkEvents | undefined;
};

type Handler<M> = (message: M) => void;

/**
 * One JSON WebSocket, typed both ways: `send` takes only the messages of `Out`, `on(type)` hands
 * the handler the parsed message of that type. Each message is parsed once, here; malformed ones
 * are logged and ignored (spec §7). Framework-free; reconnects by itself with backoff until
 * `close()`. Nothing is sent unless the socket is open (spec §4).
 */
export class SocketConnection<Out extends WireMessage, In extends WireMessage> {
  private ws: WebSocket | null = null;
  /** Spec §4: the channel socket starts in `connecting`. */
  private current: SocketState = 'connecting';
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = true;
  private readonly handlers = new Map<string, Set<Handler<In>>>();
  private readonly stateListeners = new Set<(state: SocketState) => void>();
  private readonly closeListeners = new Set<(code: number | undefined) => void>();
  private readonly createSocket: (url: string) => WebSocket;
  private network: NetworkEvents | undefined;

  /** The network is back: retry now rather than at the end of the wait. */
  private readonly networkBack = () => {
    if (this.closed || this.ws) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  };

  constructor(private readonly options: SocketConnectionOptions<In>) {
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url));
  }

  get state(): SocketState {
    return this.current;
  }

  get isOpen(): boolean {
    return this.current === 'connected';
  }

  open(): void {
    if (!this.closed) return;
    this.closed = false;
    this.network = this.options.network?.();
    this.network?.addEventListener('online', this.networkBack);
    this.connect();
  }

  close(): void {
    this.closed = true;
    this.network?.removeEventListener('online', this.networkBack);
    this.network = undefined;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'closed by the app');
    this.setState('disconnected');
  }

  /** Sends when open; returns false (and sends nothing) otherwise. */
  send(message: Out): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Calls `handler` with every valid message of `type`; returns the unsubscribe function. */
  on<T extends In['type']>(type: T, handler: Handler<Extract<In, { type: T }>>): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    // Stored untyped: dispatch only ever calls it with a message whose type is `type`.
    const stored = handler as Handler<In>;
    set.add(stored);
    return () => set.delete(stored);
  }

  onState(listener: (state: SocketState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Calls `listener` with the close code whenever the socket closes (not when the app closed it). */
  onClose(listener: (code: number | undefined) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private connect(): void {
    this.setState('connecting');
    const ws = this.createSocket(this.options.url());
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
    ws.onclose = (event?: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.setState('disconnected');
      if (this.closed) return;
      for (const listener of [...this.closeListeners]) listener(event?.code);
      const cause = isDeliberateClose(event?.code) ? 'refused' : 'lost';
      this.retryTimer = setTimeout(
        () => this.connect(),
        reconnectDelay(this.attempt++, Math.random, cause),
      );
    };
  }

  private dispatch(data: unknown): void {
    let json: unknown;
    try {
      json = typeof data === 'string' ? JSON.parse(data) : undefined;
    } catch {
      json = undefined;
    }
    const message = json === undefined ? null : this.options.parse(json);
    if (!message) {
      console.error('Malformed socket message ignored', data);
      return;
    }
    for (const handler of [...(this.handlers.get(message.type) ?? [])]) {
      try {
        handler(message);
      } catch (error) {
        console.error(`Handling ${message.type} failed`, error);
      }
    }
  }

  private setState(state: SocketState): void {
    if (this.current === state) return;
    this.current = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }
}
