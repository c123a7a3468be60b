import { randomBytes } from 'node:crypto';
import dgram, { type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { RtcpSrPacket, RtpPacket, type GenericNack, type RtcpPacket } from 'werift';
import { RedEncoder, parseRed } from './opus-red.js';
import { RED_AFTER_LOSS_PACKETS, type ForwardedPacket } from './rtp-forwarder.js';
import { SenderReports } from './sender-reports.js';
import { selfKeyedSrtpSession } from './testing/self-keyed-srtp-session.js';
import {
  forwarderKinds,
  standInForwarder,
  type ForwarderKind,
} from './testing/stand-in-forwarder.js';

const sockets: Socket[] = [];
const reports = new SenderReports();

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
  reports.close();
});

async function bound(): Promise<Socket> {
  const socket = dgram.createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

/**
 * One listener whose datagrams are kept as they arrive (still encrypted), for the tests that look
 * at the bytes: a stand-in forwarder of `kind` sending to it on a real socket, with `localContext`.
 */
async function rawListener(kind: ForwarderKind, ssrc: number, localContext: object) {
  const [socket, receiver] = await Promise.all([bound(), bound()]);
  const datagrams: Buffer[] = [];
  receiver.on('message', (message) => datagrams.push(message));
  const { forwarder, sender } = standInForwarder({
    socket,
    remotePort: receiver.address().port,
    ssrc,
    localContext,
    reports,
    kind,
  });
  const arrived = async (count: number) => {
    for (let i = 0; i < 200 && datagrams.length < count; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    return datagrams;
  };
  return { forwarder, sender, datagrams, arrived };
}

/**
 * One listener: a stand-in forwarder sending on a real socket to `receiver`, and werift's own SRTP
 * session holding the listener's keys, to decrypt what arrives as the listener's browser would.
 */
async function listener(kind: ForwarderKind, ssrc: number, red = false) {
  const { session } = selfKeyedSrtpSession();
  const [socket, receiver] = await Promise.all([bound(), bound()]);
  const received: RtpPacket[] = [];
  receiver.on('message', (message) =>
    received.push(RtpPacket.deSerialize(session.decrypt(message))),
  );
  const { forwarder, sender, transport } = standInForwarder({
    socket,
    remotePort: receiver.address().port,
    ssrc,
    localContext: session.localContext,
    reports,
    red,
    kind,
  });
  const arrived = async (count: number) => {
    for (let i = 0; i < 200 && received.length < count; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    return received;
  };
  return { forwarder, sender, transport, arrived };
}

function packet(ssrc: number, sequenceNumber: number, timestamp: number, marker = false) {
  const payload = randomBytes(60 + (sequenceNumber % 40));
  return { header: { ssrc, sequenceNumber, timestamp, marker }, payload } as ForwardedPacket;
}

describe.each(forwarderKinds())('the %s forwarder (one talker towards one listener)', (kind) => {
  it('sends the talker’s audio under the listener’s SSRC and payload type, encrypted for the listener', async () => {
    const ann = await listener(kind, 0xa11ce);
    const sent = [packet(42, 65_534, 4_000_000_000, true), packet(42, 65_535, 4_000_000_960)];
    sent.push(packet(42, 0, 4_000_001_920)); // the talker's sequence number wraps
    for (const p of sent) ann.forwarder.send(p);
    const got = await ann.arrived(3);

    expect(got).toHaveLength(3);
    for (const [i, p] of got.entries()) {
      expect(p.header.version).toBe(2);
      expect(p.header.payloadType).toBe(111);
      expect(p.header.ssrc).toBe(0xa11ce);
      expect(p.header.marker).toBe(i === 0);
      expect(p.payload).toEqual(sent[i]!.payload);
    }
    // Our own numbering: consecutive, and the timestamps 960 apart, like the talker's.
    const seqs = got.map((p) => p.header.sequenceNumber);
    expect(seqs).toEqual([seqs[0]!, (seqs[0]! + 1) & 0xffff, (seqs[0]! + 2) & 0xffff]);
    const stamps = got.map((p) => p.header.timestamp);
    expect(stamps).toEqual([stamps[0]!, (stamps[0]! + 960) >>> 0, (stamps[0]! + 1920) >>> 0]);
  });

  it('keeps its RTCP sender reports truthful: packets, octets and the RTP/NTP clock pair', async () => {
    const { session } = selfKeyedSrtpSession();
    const [socket, receiver] = await Promise.all([bound(), bound()]);
    const received: RtpPacket[] = [];
    receiver.on('message', (message) =>
      received.push(RtpPacket.deSerialize(session.decrypt(message))),
    );
    const rtcp: RtcpPacket[][] = [];
    // The first report 0.5 s after the first packet (the earliest of werift's 0.5–1.5 s).
    const soonReports = new SenderReports(undefined, () => 0);
    const { forwarder } = standInForwarder({
      socket,
      remotePort: receiver.address().port,
      ssrc: 0x5e7,
      localContext: session.localContext,
      reports: soonReports,
      kind,
      onRtcp: (packets) => rtcp.push(packets),
    });
    const sent = [packet(9, 10, 48_000), packet(9, 11, 48_960), packet(9, 12, 49_920)];
    const before = Date.now();
    for (const p of sent) forwarder.send(p);
    for (let i = 0; i < 300 && rtcp.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    soonReports.close();

    const report = rtcp[0]?.find((p): p is RtcpSrPacket => p instanceof RtcpSrPacket);
    expect(report?.ssrc).toBe(0x5e7);
    expect(report?.senderInfo.packetCount).toBe(3);
    const octets = sent.reduce((sum, p) => sum + p.payload.length, 0);
    expect(report?.senderInfo.octetCount).toBe(octets);
    // The clock pair is the first packet's: its RTP timestamp as the listener got it, and the
    // wall-clock time it was sent (NTP: seconds since 1900 in the upper 32 bits).
    expect(report?.senderInfo.rtpTimestamp).toBe(received[0]?.header.timestamp);
    const ntpSeconds = Number(report!.senderInfo.ntpTimestamp >> 32n) - 2_208_988_800;
    expect(Math.abs(ntpSeconds * 1000 - before)).toBeLessThan(2_000);
  });

  it('continues its numbering without a jump when the talker’s stream restarts with a new SSRC', async () => {
    const ben = await listener(kind, 0xb0b);
    ben.forwarder.send(packet(1, 100, 5_000));
    ben.forwarder.send(packet(1, 101, 5_960));
    ben.forwarder.send(packet(2, 31_000, 777_777)); // a new source, numbered from elsewhere
    ben.forwarder.send(packet(2, 31_001, 778_737));
    const got = await ben.arrived(4);

    expect(got).toHaveLength(4);
    const first = got[0]!.header;
    got.forEach((p, i) => {
      expect(p.header.sequenceNumber).toBe((first.sequenceNumber + i) & 0xffff);
      expect(p.header.timestamp).toBe((first.timestamp + 960 * i) >>> 0);
    });
  });

  it('sends RED to a listener that negotiated it and the plain Opus frame to one that did not', async () => {
    const [plain, red] = await Promise.all([listener(kind, 0x1), listener(kind, 0x2, true)]);
    const encoder = new RedEncoder(2, 1000);
    const sent = [0, 1, 2, 3, 4].map((i) => {
      const p = packet(7, 500 + i, 96_000 + 960 * i);
      return { ...p, red: encoder.encode(p.header.sequenceNumber, p.header.timestamp, p.payload) };
    });
    const send = (p: ForwardedPacket) => {
      plain.forwarder.send(p);
      red.forwarder.send(p);
    };
    for (const p of sent.slice(0, 3)) send(p);
    await red.arrived(3);
    // The RED listener reports a loss: from now on its packets repeat the frames before them.
    red.sender.onGenericNack.execute({ lost: [] } as unknown as GenericNack);
    for (const p of sent.slice(3)) send(p);
    const [gotPlain, gotRed] = await Promise.all([plain.arrived(5), red.arrived(5)]);

    expect(gotPlain.map((p) => p.header.payloadType)).toEqual([111, 111, 111, 111, 111]);
    expect(gotPlain.map((p) => p.payload)).toEqual(sent.map((p) => p.payload));
    expect(gotRed.map((p) => p.header.payloadType)).toEqual([63, 63, 63, 63, 63]);
    // Before the loss, each frame alone; after it, the two frames before it, then its own.
    for (const [i, p] of gotRed.slice(0, 3).entries())
      expect(parseRed(p.payload)).toEqual([
        { payloadType: 111, timestampOffset: 0, payload: sent[i]!.payload },
      ]);
    const blocks = parseRed(gotRed[4]!.payload)!;
    expect(blocks.map((b) => b.payload)).toEqual(sent.slice(2).map((p) => p.payload));
    expect(blocks.map((b) => b.timestampOffset)).toEqual([1920, 960, 0]);
  });

  it('stops repeating earlier frames once the listener has lost nothing for RED_AFTER_LOSS_PACKETS packets', async () => {
    const red = await listener(kind, 0x4, true);
    const encoder = new RedEncoder(1, 1000);
    red.sender.onGenericNack.execute({ lost: [] } as unknown as GenericNack);
    const count = RED_AFTER_LOSS_PACKETS + 2;
    let got: RtpPacket[] = [];
    for (let i = 0; i < count; i++) {
      const p = packet(7, i, 960 * i);
      red.forwarder.send({
        ...p,
        red: encoder.encode(p.header.sequenceNumber, p.header.timestamp, p.payload),
      });
      // A few at a time, so that no datagram overflows the receiving socket's buffer.
      if (i % 20 === 19 || i === count - 1) got = await red.arrived(i + 1);
    }
    const blocksOf = (i: number) => parseRed(got[i]!.payload)!.length;
    expect(blocksOf(1)).toBe(2);
    expect(blocksOf(RED_AFTER_LOSS_PACKETS - 1)).toBe(2);
    expect(blocksOf(RED_AFTER_LOSS_PACKETS)).toBe(1);
    expect(blocksOf(count - 1)).toBe(1);
  });

  it('wraps a frame that has no RED form (silence after an admin mute) for a RED listener', async () => {
    const red = await listener(kind, 0x3, true);
    const silence = packet(7, 9, 9_600);
    red.forwarder.send(silence);
    const [got] = await red.arrived(1);
    expect(got!.header.payloadType).toBe(63);
    expect(parseRed(got!.payload)).toEqual([
      { payloadType: 111, timestampOffset: 0, payload: silence.payload },
    ]);
  });

  it('sends a datagram the listener reports lost (RTCP NACK) again, byte for byte, at most twice', async () => {
    const { session } = selfKeyedSrtpSession();
    const { forwarder, sender, datagrams, arrived } = await rawListener(
      kind,
      0xb0b,
      session.localContext,
    );
    for (let i = 0; i < 3; i++) forwarder.send(packet(0x7a1, 500 + i, 960 * i));
    const sent = [...(await arrived(3))];
    const sequenceOf = (datagram: Buffer) => datagram.readUInt16BE(2);

    // The listener's browser lost the second packet and asks for it (and for one never sent).
    const lost = sequenceOf(sent[1]!);
    const nack = (seqs: number[]) =>
      sender.onGenericNack.execute({ lost: seqs } as unknown as GenericNack);
    nack([lost, (lost + 1000) & 0xffff]);
    const again = (await arrived(4))[3]!;
    expect(again.equals(sent[1]!)).toBe(true);
    // It decrypts as the packet that was lost.
    expect(RtpPacket.deSerialize(session.decrypt(again)).header.sequenceNumber).toBe(lost);

    // Asking over and over gets it once more, then no more.
    nack([lost]);
    nack([lost]);
    nack([lost]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(datagrams.filter((datagram) => datagram.equals(sent[1]!))).toHaveLength(3);
  });

  it('sends through werift’s ICE connection when the pair is TCP or TURN, NACKed packets too', async () => {
    const { session } = selfKeyedSrtpSession();
    const datagrams: Buffer[] = [];
    const { forwarder, sender } = standInForwarder({
      socket: await bound(),
      remotePort: 9,
      ssrc: 0x7c9,
      localContext: session.localContext,
      reports,
      kind,
      throughWerift: (datagram) => datagrams.push(datagram),
    });
    const sent = [packet(3, 70, 1_000), packet(3, 71, 1_960)];
    expect(sent.map((p) => forwarder.send(p))).toEqual(['slow', 'slow']);
    const got = datagrams.map((d) => RtpPacket.deSerialize(session.decrypt(d)));
    expect(got.map((p) => p.payload)).toEqual(sent.map((p) => p.payload));
    expect(got.map((p) => p.header.ssrc)).toEqual([0x7c9, 0x7c9]);

    sender.onGenericNack.execute({ lost: [got[0]!.header.sequenceNumber] } as GenericNack);
    expect(datagrams).toHaveLength(3);
    expect(datagrams[2]!.equals(datagrams[0]!)).toBe(true);
  });

  it('sends nothing once werift closed the pair’s socket, or once the listener stopped hearing the talker', async () => {
    const ann = await listener(kind, 0xc1);
    ann.forwarder.send(packet(5, 1, 960));
    await ann.arrived(1);
    ann.transport.closed = true;
    expect(ann.forwarder.send(packet(5, 2, 1_920))).toBeUndefined();
    ann.transport.closed = false;
    ann.forwarder.close();
    expect(ann.forwarder.send(packet(5, 3, 2_880))).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await ann.arrived(1)).toHaveLength(1);
  });

  it('encrypts with the new keys after a new DTLS session, numbering on without a jump', async () => {
    const first = selfKeyedSrtpSession();
    const second = selfKeyedSrtpSession();
    const { forwarder, sender, datagrams, arrived } = await rawListener(
      kind,
      0xd7,
      first.session.localContext,
    );
    forwarder.send(packet(4, 300, 9_600));
    forwarder.send(packet(4, 301, 10_560));
    await arrived(2);
    // An ICE restart's new DTLS handshake gave werift new SRTP keys.
    sender.dtlsTransport.srtp.localContext = second.session.localContext;
    forwarder.send(packet(4, 302, 11_520));
    await arrived(3);

    expect(datagrams).toHaveLength(3);
    const before = datagrams
      .slice(0, 2)
      .map((d) => RtpPacket.deSerialize(first.session.decrypt(d)));
    const after = RtpPacket.deSerialize(second.session.decrypt(datagrams[2]!));
    expect(after.header.sequenceNumber).toBe((before[1]!.header.sequenceNumber + 1) & 0xffff);
    expect(() => first.session.decrypt(datagrams[2]!)).toThrow();
  });
});
