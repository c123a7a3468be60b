import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A protector's state in C memory (the keys, the cipher, the HMAC pads); opaque to JavaScript. */
export type NativeProtector = { readonly __nativeProtector: unique symbol };

/** A talker-to-listener forwarder's state in C memory (`fan-out.c`); opaque to JavaScript. */
export type NativeForwarder = { readonly __nativeForwarder: unique symbol };

/** The functions of `sfu-datagrams.c` and `fan-out.c` (see there). */
export interface NativeDatagrams {
  createProtector(key: Buffer, salt: Buffer, authKey: Buffer, ssrc: number): NativeProtector;
  protect(
    protector: NativeProtector,
    packet: Buffer,
    headerLength: number,
    payloadLength: number,
    index: number,
  ): void;
  /** A `sockaddr` for `sendDatagrams`, or null when `host` is not an IP address or the port is 0. */
  socketAddress(host: string, port: number): Buffer | null;
  /** Sends datagram i on socket `fds[i]` to `addresses[i]`; returns how many the kernel took. */
  sendDatagrams(fds: Int32Array, addresses: Buffer[], datagrams: Buffer[], count: number): number;
  /** The receive thread (`receive-thread.c`); see `receive-thread.ts`, its only caller. */
  startReceiving(
    deliver: (id: number, datagram: Buffer, host: string, port: number, ipv6: boolean) => void,
  ): boolean;
  watchSocket(fd: number): number;
  unwatchSocket(id: number): boolean;
  armConsent(
    id: number,
    remote: Buffer,
    username: Buffer,
    password: Buffer,
    controlling: boolean,
  ): boolean;
  disarmConsent(id: number): void;
  consentAnswers(): number;
  /** The fan-out (`fan-out.c`); see `native-rtp-forwarder.ts`, its only caller. */
  createForwarder(
    ssrc: number,
    sequenceOffset: number,
    timestampOffset: number,
    redAfterLoss: number,
  ): NativeForwarder;
  forwarderKeys(
    forwarder: NativeForwarder,
    key: Buffer | null,
    salt: Buffer | null,
    authKey: Buffer | null,
  ): void;
  forwarderRoute(forwarder: NativeForwarder, fd: number, address: Buffer | null): void;
  forwarderCodec(forwarder: NativeForwarder, payloadType: number, sendsRed: boolean): void;
  forwardPacket(
    forwarders: (NativeForwarder | undefined)[],
    count: number,
    ssrc: number,
    sequenceNumber: number,
    timestamp: number,
    marker: boolean,
    payload: Buffer,
    red: Buffer | null,
    redPrimary: Buffer | null,
  ): number;
  buildDatagram(
    forwarder: NativeForwarder,
    ssrc: number,
    sequenceNumber: number,
    timestamp: number,
    marker: boolean,
    payload: Buffer,
    red: Buffer | null,
    redPrimary: Buffer | null,
  ): Buffer | null;
  resendLost(forwarder: NativeForwarder, lost: readonly number[], copyOut: false): number;
  resendLost(forwarder: NativeForwarder, lost: readonly number[], copyOut: true): Buffer[];
  forwarderReport(forwarder: NativeForwarder, out: Uint32Array): void;
  closeForwarder(forwarder: NativeForwarder): void;
}

/** Where `npm run build` (and the unit tests' setup) put the compiled addon, from source or dist. */
export const NATIVE_DATAGRAMS_FILE = fileURLToPath(
  new URL(
    import.meta.url.includes('/dist/server/')
      ? '../../../../../../../dist/native/sfu-datagrams.node'
      : '../../../../../dist/native/sfu-datagrams.node',
    import.meta.url,
  ),
);

let loaded: NativeDatagrams | null | undefined;

/**
 * The built-in SFU's native per-listener path, when it was built (`scripts/build-native.mjs`) and
 * not turned off with `SFU_NATIVE=off`; undefined otherwise, and the SFU does the same in
 * JavaScript (a few microseconds more per forwarded packet).
 */
export function nativeDatagrams(): NativeDatagrams | undefined {
  if (loaded === undefined) loaded = load();
  return loaded ?? undefined;
}

function load(): NativeDatagrams | null {
  if (process.env.SFU_NATIVE === 'off' || !existsSync(NATIVE_DATAGRAMS_FILE)) return null;
  try {
    const candidate = createRequire(import.meta.url)(
      NATIVE_DATAGRAMS_FILE,
    ) as Partial<NativeDatagrams>;
    const complete =
      typeof candidate.createProtector === 'function' &&
      typeof candidate.protect === 'function' &&
      typeof candidate.socketAddress === 'function' &&
      typeof candidate.sendDatagrams === 'function' &&
      typeof candidate.startReceiving === 'function' &&
      typeof candidate.watchSocket === 'function' &&
      typeof candidate.unwatchSocket === 'function' &&
      typeof candidate.armConsent === 'function' &&
      typeof candidate.disarmConsent === 'function' &&
      typeof candidate.consentAnswers === 'function' &&
      typeof candidate.createForwarder === 'function' &&
      typeof candidate.forwarderKeys === 'function' &&
      typeof candidate.forwarderRoute === 'function' &&
      typeof candidate.forwarderCodec === 'function' &&
      typeof candidate.forwardPacket === 'function' &&
      typeof candidate.buildDatagram === 'function' &&
      typeof candidate.resendLost === 'function' &&
      typeof candidate.forwarderReport === 'function' &&
      typeof candidate.closeForwarder === 'function';
    return complete ? (candidate as NativeDatagrams) : null;
  } catch {
    // Built for another Node ABI or platform: the JavaScript path serves.
    return null;
  }
}
