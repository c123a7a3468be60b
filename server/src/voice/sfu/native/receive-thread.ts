import type { Socket } from 'node:dgram';
import { readableHandle } from '../datagram-batch.js';
import { nativeDatagrams, type NativeDatagrams } from './native-datagrams.js';

/**
 * The SFU's ICE sockets read by the addon's receive thread (`receive-thread.c`) instead of libuv,
 * so the consent checks of idle members are answered without waking Node's event loop: ~150 µs of
 * a core per check from Node against ~25 µs from C (decision 057).
 *
 * A socket taken over (`readOffLoop`) stops being read by libuv. The thread hands every datagram it
 * does not answer itself back here, and this emits it on the socket as `'message'`, exactly as
 * libuv would have, so werift and the SFU's own interception see no difference. `socket.close` is
 * wrapped so the thread lets go of the descriptor before Node closes it.
 *
 * The thread answers consent checks only on a socket armed with `armConsent`, which the SFU does
 * once it has answered a check on the nominated pair itself (`interceptDatagrams`); a check that
 * differs in any way (another address, other credentials, a role conflict, a bad MAC, past the
 * thread's budget) comes back here for the SFU and werift, as before.
 */
export interface ConsentCredentials {
  /** The nominated pair's remote address, as `DatagramBatch.socketAddress` made it (IPv4). */
  remote: Buffer;
  /** `localUsername:remoteUsername`, as a check's USERNAME carries it. */
  username: Buffer;
  /** The agent's local password (the MESSAGE-INTEGRITY key), at most 64 bytes. */
  password: Buffer;
  controlling: boolean;
}

const ids = new WeakMap<Socket, number>();
const sockets = new Map<number, Socket>();
let started: boolean | undefined;

function receiver(): NativeDatagrams | undefined {
  const native = nativeDatagrams();
  if (!native) return undefined;
  if (started === undefined) {
    try {
      started = native.startReceiving(deliver);
    } catch {
      started = false;
    }
  }
  return started ? native : undefined;
}

function deliver(id: number, datagram: Buffer, host: string, port: number, ipv6: boolean): void {
  const socket = sockets.get(id);
  if (!socket) return; // let go of meanwhile
  socket.emit('message', datagram, {
    address: host,
    family: ipv6 ? 'IPv6' : 'IPv4',
    port,
    size: datagram.length,
  });
}

/**
 * Has the receive thread read `socket` from now on: true when it does (or already did), false when
 * the addon is not built, its thread belongs to another environment, or the socket's internals are
 * not the expected ones (then libuv goes on reading it).
 */
export function readOffLoop(socket: Socket): boolean {
  if (ids.has(socket)) return true;
  const native = receiver();
  const handle = native && readableHandle(socket);
  if (!native || !handle) return false;
  handle.recvStop();
  let id: number;
  try {
    id = native.watchSocket(handle.fd);
  } catch {
    handle.recvStart();
    return false;
  }
  ids.set(socket, id);
  sockets.set(id, socket);
  const close = socket.close.bind(socket);
  // The descriptor must be let go of before Node closes it: a closed number can be reused at once.
  socket.close = (...args: Parameters<Socket['close']>) => {
    letGo(socket);
    return close(...args);
  };
  return true;
}

function letGo(socket: Socket): void {
  const id = ids.get(socket);
  if (id === undefined) return;
  ids.delete(socket);
  sockets.delete(id);
  nativeDatagrams()?.unwatchSocket(id);
}

/** Lets the thread answer consent checks on `socket` that match `credentials`; false if it cannot. */
export function armConsent(socket: Socket, credentials: ConsentCredentials): boolean {
  const id = ids.get(socket);
  const native = receiver();
  if (id === undefined || !native || credentials.password.length > 64) return false;
  try {
    return native.armConsent(
      id,
      credentials.remote,
      credentials.username,
      credentials.password,
      credentials.controlling,
    );
  } catch {
    return false; // an IPv6 pair or an oversized username: the checks stay with JavaScript
  }
}

/** Every consent check on `socket` comes to JavaScript again. */
export function disarmConsent(socket: Socket): void {
  const id = ids.get(socket);
  if (id !== undefined) receiver()?.disarmConsent(id);
}

/** How many consent checks the thread has answered in this process (tests, benches). */
export function threadConsentAnswers(): number {
  return receiver()?.consentAnswers() ?? 0;
}
