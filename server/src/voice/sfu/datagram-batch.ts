import type { Socket } from 'node:dgram';
import { nativeDatagrams, type NativeDatagrams } from './native/native-datagrams.js';

/**
 * The datagrams of one fan-out, sent together once the forwarding loop is done.
 *
 * `socket.send(buffer, port, host)` costs about 3.5 µs of JavaScript per datagram before the
 * system call: it validates its arguments, "resolves" the IP address through `dns.lookup` (a
 * regular expression, a closure and a `process.nextTick`), then makes a `SendWrap` and calls the
 * native handle. A talker heard by 300 listeners pays that 15,000 times a second. This queues the
 * fan-out's datagrams and sends them in one `process.nextTick` (when `socket.send` would have sent
 * them anyway), straight through the socket's native handle, as Node's own `doSend` does.
 * Measured by `npm run bench rtp-forwarder`: ~1.6 µs less per forwarded packet (~10 %), from the
 * skipped JavaScript and from sending the fan-out's datagrams back to back, not interleaved
 * with the encryption of the next ones.
 *
 * The handle is a Node internal (v20: `socket[Symbol(state symbol)].handle`, `SendWrap` from the
 * `udp_wrap` binding). Each piece is checked once; if any is missing or shaped differently, every
 * datagram goes through `socket.send` instead, still batched. Only a bound, unconnected socket
 * (werift's ICE sockets) takes the native path; others go through `socket.send`.
 *
 * With the SFU's native addon built (`native/sfu-datagrams.c`), a datagram queued with its
 * destination as a `sockaddr` (`address`) skips Node's UDP handle too: the fan-out's datagrams go to
 * the kernel in one call, a `sendto` each on the sockets' own descriptors, ~1–1.5 µs less per
 * datagram than the handle's send (`npm run bench rtp-forwarder`). A socket closed before the
 * flush has no descriptor and its datagram is dropped, as `socket.send` on a closed socket would.
 */
export class DatagramBatch {
  private readonly sockets: (Socket | undefined)[] = [];
  private readonly buffers: (Buffer | undefined)[] = [];
  private readonly ports: number[] = [];
  private readonly hosts: string[] = [];
  private readonly addresses: (Buffer | undefined)[] = [];
  private length = 0;
  private readonly flushNow = () => this.flush();
  /** The native send's arguments, reused from flush to flush. */
  private fds = new Int32Array(64);
  private readonly nativeAddresses: Buffer[] = [];
  private readonly nativeBuffers: Buffer[] = [];

  constructor(private readonly native: NativeDatagrams | undefined = nativeDatagrams()) {}

  /**
   * The destination in the form `add` sends natively, or undefined when the native path is off or
   * `host` is not an IP address. Made once per route, not per datagram.
   */
  socketAddress(host: string, port: number): Buffer | undefined {
    return this.native?.socketAddress(host, port) ?? undefined;
  }

  /**
   * Queues one datagram; `host` must be an IP address (the nominated pair's remote candidate), and
   * `address` the same destination from `socketAddress`, when there is one.
   */
  add(socket: Socket, buffer: Buffer, port: number, host: string, address?: Buffer): void {
    const i = this.length++;
    if (i === 0) process.nextTick(this.flushNow);
    this.sockets[i] = socket;
    this.buffers[i] = buffer;
    this.ports[i] = port;
    this.hosts[i] = host;
    this.addresses[i] = address;
  }

  /** Sends everything queued (the native sends together, after the others). */
  flush(): void {
    const count = this.length;
    this.length = 0;
    const native = this.native;
    let nativeCount = 0;
    for (let i = 0; i < count; i++) {
      const socket = this.sockets[i]!;
      const address = this.addresses[i];
      if (native && address) {
        const fd = socketDescriptor(socket);
        if (fd !== undefined) {
          if (fd < 0) continue; // closed meanwhile: a lost datagram
          if (nativeCount === this.fds.length) this.growDescriptors();
          this.fds[nativeCount] = fd;
          this.nativeAddresses[nativeCount] = address;
          this.nativeBuffers[nativeCount] = this.buffers[i]!;
          nativeCount++;
          continue;
        }
      }
      sendDatagram(socket, this.buffers[i]!, this.ports[i]!, this.hosts[i]!);
    }
    if (native && nativeCount > 0) {
      try {
        native.sendDatagrams(this.fds, this.nativeAddresses, this.nativeBuffers, nativeCount);
      } catch {
        // Only wrong arguments throw, and the batch makes them itself; a throw here would end
        // the process from its nextTick, so the fan-out is lost instead.
      }
      this.nativeBuffers.fill(EMPTY, 0, nativeCount);
    }
    // Let the buffers go; the arrays keep their size for the next fan-out.
    this.sockets.fill(undefined, 0, count);
    this.buffers.fill(undefined, 0, count);
    this.addresses.fill(undefined, 0, count);
  }

  private growDescriptors(): void {
    const grown = new Int32Array(this.fds.length * 2);
    grown.set(this.fds);
    this.fds = grown;
  }
}

/** The native UDP handle's send, as `dgram`'s `doSend` calls it (Node 20). */
interface UdpHandle {
  send(
    req: SendRequest,
    list: Buffer[],
    count: number,
    port: number,
    address: string,
    hasCallback: boolean,
  ): number;
}

interface SendRequest {
  list?: Buffer[];
}

interface SocketState {
  handle: UdpHandle | null;
  bindState: number;
  connectState: number;
}

/** `dgram`'s BIND_STATE_BOUND and CONNECT_STATE_DISCONNECTED. */
const BOUND = 2;
const DISCONNECTED = 0;

type SendRequestConstructor = new () => SendRequest;

const EMPTY = Buffer.alloc(0);

let stateSymbol: symbol | null | undefined;
let SendRequestClass: SendRequestConstructor | null | undefined;
/**
 * One request object and one buffer list serve every synchronous send: Node's native side reads
 * them again only for a send that libuv had to queue, which then keeps them.
 */
let spareRequest: SendRequest | undefined;
let spareList: Buffer[] = [];

function sendRequestClass(): SendRequestConstructor | null {
  if (SendRequestClass !== undefined) return SendRequestClass;
  SendRequestClass = null;
  try {
    // `process.binding` is deprecated for new code but kept for these modules; the type says any.
    const binding = (process as unknown as { binding(name: string): unknown }).binding('udp_wrap');
    const candidate = (binding as { SendWrap?: unknown } | undefined)?.SendWrap;
    if (typeof candidate === 'function') SendRequestClass = candidate as SendRequestConstructor;
  } catch {
    // No binding on this runtime: `socket.send` it is.
  }
  return SendRequestClass;
}

function socketState(socket: Socket): SocketState | undefined {
  if (stateSymbol === undefined) {
    stateSymbol =
      Object.getOwnPropertySymbols(socket).find((s) => s.description === 'state symbol') ?? null;
  }
  if (stateSymbol === null) return undefined;
  const state = (socket as unknown as Record<symbol, Partial<SocketState> | undefined>)[
    stateSymbol
  ];
  if (!state || typeof state.bindState !== 'number' || typeof state.connectState !== 'number')
    return undefined;
  if (state.handle !== null && typeof state.handle?.send !== 'function') return undefined;
  return state as SocketState;
}

/**
 * The state of a socket whose datagrams can skip `socket.send`: the internals are there and it is
 * bound and unconnected. Its `handle` is null once the socket is closed.
 */
function nativeState(socket: Socket): SocketState | undefined {
  if (sendRequestClass() === null) return undefined;
  const state = socketState(socket);
  return state?.bindState === BOUND && state.connectState === DISCONNECTED ? state : undefined;
}

/**
 * The descriptor of a bound, unconnected socket whose internals are known: -1 once it is closed,
 * undefined when the native send cannot take it (then `sendDatagram` does).
 */
export function socketDescriptor(socket: Socket): number | undefined {
  const state = nativeState(socket);
  if (!state) return undefined;
  if (state.handle === null) return -1;
  const fd = (state.handle as { fd?: unknown }).fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** A bound socket's native UDP handle as the receive thread needs it (`receive-thread.ts`). */
export interface ReadableUdpHandle {
  readonly fd: number;
  recvStart(): number;
  recvStop(): number;
}

/**
 * The native handle of a bound, open socket whose internals are known, with its descriptor and
 * libuv's read switches; undefined otherwise.
 */
export function readableHandle(socket: Socket): ReadableUdpHandle | undefined {
  const state = socketState(socket);
  const handle =
    state?.bindState === BOUND ? (state.handle as Partial<ReadableUdpHandle> | null) : null;
  if (
    !handle ||
    typeof handle.fd !== 'number' ||
    handle.fd < 0 ||
    typeof handle.recvStart !== 'function' ||
    typeof handle.recvStop !== 'function'
  )
    return undefined;
  return handle as ReadableUdpHandle;
}

/** Whether datagrams on `socket` skip `socket.send` (for the tests and the bench). */
export function sendsNatively(socket: Socket): boolean {
  return Boolean(nativeState(socket)?.handle);
}

/** The native side asserts a valid port (a failed assertion aborts the process); `socket.send` throws. */
const validPort = (port: number) => port > 0 && port < 0x1_0000 && port === (port | 0);

function sendDatagram(socket: Socket, buffer: Buffer, port: number, host: string): void {
  const state = nativeState(socket);
  if (!state || !validPort(port)) {
    try {
      socket.send(buffer, port, host);
    } catch {
      // Closed meanwhile, or a bad port; a lost datagram, as on the wire.
    }
    return;
  }
  const handle = state.handle;
  if (!handle) return; // closed meanwhile
  const request = spareRequest ?? new (sendRequestClass()!)();
  spareRequest = request;
  const list = spareList;
  list[0] = buffer;
  // Positive: sent at once (length + 1). Zero: libuv queued it and owns the request now.
  // Negative: an error, which `socket.send` without a callback ignores too.
  if (handle.send(request, list, 1, port, host, false) === 0) {
    request.list = list; // keeps the buffer alive until libuv has sent it
    spareRequest = undefined;
    spareList = [];
  } else {
    list[0] = EMPTY;
  }
}
