import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import { selfKeyedSrtpSession } from '../testing/self-keyed-srtp-session.js';
import { HmacSha1 } from './hmac-sha1.js';
import { nativeDatagrams } from '../native/native-datagrams.js';
import {
  NativeSrtpProtector,
  SRTP_AUTH_TAG_BYTES,
  SrtpAesCmProtector,
  type SrtpProtector,
  type SrtpSessionKeys,
} from './srtp-aes-cm.js';

function protect(protector: SrtpProtector, header: RtpHeader, payload: Buffer, index: number) {
  const packet = Buffer.alloc(12 + payload.length + SRTP_AUTH_TAG_BYTES);
  header.serialize(12).copy(packet);
  payload.copy(packet, 12);
  protector.protect(packet, 12, payload.length, index);
  return packet;
}

describe('HmacSha1', () => {
  it('matches Node for every message length a voice packet can have', () => {
    const key = randomBytes(20);
    const mac = new HmacSha1(key);
    for (let length = 0; length < 300; length++) {
      const data = randomBytes(length);
      const suffix = (length * 2654435761) >>> 0;
      const tag = Buffer.alloc(20);
      mac.sign(data, length, suffix, tag, 0, 20);
      const suffixBytes = Buffer.alloc(4);
      suffixBytes.writeUInt32BE(suffix);
      expect(tag).toEqual(createHmac('sha1', key).update(data).update(suffixBytes).digest());
    }
  });
});

/** Both protectors the SFU can use: JavaScript, and OpenSSL's in the native addon (tests' setup built it). */
describe.each([
  {
    name: 'SrtpAesCmProtector (JavaScript)',
    make: (keys: SrtpSessionKeys, ssrc: number) => new SrtpAesCmProtector(keys, ssrc),
  },
  {
    name: 'NativeSrtpProtector (OpenSSL, in C)',
    make: (keys: SrtpSessionKeys, ssrc: number) => {
      const native = nativeDatagrams();
      expect(native).toBeDefined();
      return new NativeSrtpProtector(native!, keys, ssrc);
    },
  },
])('$name', ({ make }) => {
  it('produces the packets werift would, and werift decrypts them', () => {
    const { session, keys } = selfKeyedSrtpSession();
    const ssrc = 0x1234abcd;
    const protector = make(keys, ssrc);
    // Across a sequence-number wrap (rollover counter 0 → 1), with payload sizes beyond one batch
    // and as large as a datagram a browser could send (past 512 bytes, in odd lengths).
    for (let i = 0; i < 80; i++) {
      const sequenceNumber = (65_500 + i) & 0xffff;
      const header = new RtpHeader({
        payloadType: 111,
        sequenceNumber,
        timestamp: i * 960,
        ssrc,
        marker: i === 0,
      });
      const payload = randomBytes(i === 40 ? 400 : i === 41 ? 1_201 : i === 42 ? 512 : 20 + i);
      const ours = protect(protector, header, payload, 65_500 + i);
      const theirs = session.encrypt(payload, header);
      expect(ours).toEqual(theirs);
      const decrypted = RtpPacket.deSerialize(session.decrypt(ours));
      expect(decrypted.payload).toEqual(payload);
      expect(decrypted.header.sequenceNumber).toBe(sequenceNumber);
    }
  });

  it('handles an index that jumps backwards (a late packet) and far ahead (a gap)', () => {
    const { session, keys } = selfKeyedSrtpSession();
    const protector = make(keys, 7);
    for (const index of [100, 101, 99, 5_000, 5_001]) {
      const header = new RtpHeader({
        payloadType: 111,
        sequenceNumber: index,
        timestamp: 0,
        ssrc: 7,
      });
      const payload = randomBytes(90);
      expect(protect(protector, header, payload, index)).toEqual(session.encrypt(payload, header));
    }
  });

  it('encrypts alike wherever the packet sits in memory (word-wise and byte-wise XOR)', () => {
    const { session, keys } = selfKeyedSrtpSession();
    const protector = make(keys, 9);
    // Packets at every alignment, alternating between two backing buffers (as Node's buffer pool
    // moves on), with RED-sized and odd payload lengths.
    const backings = [new ArrayBuffer(4096), new ArrayBuffer(4096)];
    for (let index = 0; index < 40; index++) {
      const header = new RtpHeader({
        payloadType: 111,
        sequenceNumber: index,
        timestamp: index * 960,
        ssrc: 9,
      });
      const payload = randomBytes([165, 163, 80, 17, 3][index % 5]!);
      const at = 64 + (index % 8);
      const packet = Buffer.from(
        backings[index % 2]!,
        at,
        12 + payload.length + SRTP_AUTH_TAG_BYTES,
      );
      header.serialize(12).copy(packet);
      payload.copy(packet, 12);
      protector.protect(packet, 12, payload.length, index);
      expect(Buffer.from(packet)).toEqual(session.encrypt(payload, header));
    }
  });
});
