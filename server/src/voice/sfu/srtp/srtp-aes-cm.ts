import { AesCmKeystream } from './aes-cm-keystream.js';
import { HmacSha1 } from './hmac-sha1.js';

/** Session keys of one direction of an SRTP_AES128_CM_HMAC_SHA1_80 session (RFC 3711 §4.3). */
export interface SrtpSessionKeys {
  key: Buffer;
  salt: Buffer;
  authKey: Buffer;
}

export const SRTP_AUTH_TAG_BYTES = 10;

/**
 * Protects the RTP packets of one outgoing SSRC in place: encrypts the payload and appends the
 * 80-bit tag. The caller owns the packet index (rollover counter · 2^16 + sequence number), which a
 * forwarder knows exactly because it numbers the packets itself.
 */
export class SrtpAesCmProtector {
  private readonly keystream: AesCmKeystream;
  private readonly mac: HmacSha1;

  constructor(keys: SrtpSessionKeys, ssrc: number) {
    this.keystream = new AesCmKeystream(keys.key, keys.salt, ssrc);
    this.mac = new HmacSha1(keys.authKey);
  }

  /**
   * `packet` holds the RTP header (`headerLength` bytes), the payload (`payloadLength`) and
   * SRTP_AUTH_TAG_BYTES free bytes after it.
   */
  protect(packet: Buffer, headerLength: number, payloadLength: number, index: number): void {
    this.keystream.apply(index, packet, headerLength, payloadLength);
    const authenticated = headerLength + payloadLength;
    const rolloverCounter = Math.floor(index / 0x1_0000) >>> 0;
    this.mac.sign(
      packet,
      authenticated,
      rolloverCounter,
      packet,
      authenticated,
      SRTP_AUTH_TAG_BYTES,
    );
  }
}
