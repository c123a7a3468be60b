import { describe, expect, it } from 'vitest';
import {
  RECORDING_BYTES_PER_SECOND,
  TransmissionRecording,
  type RecordingBounds,
} from './transmission-recording.js';

const frame = (byte: number) => Buffer.from([0xf8, byte, byte, byte]);

/** A recorder's clock the test moves by hand, starting at `start` (epoch ms). */
function clock(start = 0) {
  const time = { now: start };
  return { time, bounds: (more: RecordingBounds = {}) => ({ now: () => time.now, ...more }) };
}

/** Pushes packets 20 ms of wall clock apart, as a talking microphone sends them. */
function talk(
  recording: TransmissionRecording,
  time: { now: number },
  count: number,
  packet: (i: number) => { timestamp: number; payload: Buffer },
) {
  for (let i = 0; i < count; i++) {
    const { timestamp, payload } = packet(i);
    recording.push(7, timestamp, payload);
    time.now += 20;
  }
}

/** The audio packets of a file (after the head and tags pages), read back by lacing. */
function audioPackets(file: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let offset = 0;
  let pageIndex = 0;
  while (offset < file.length) {
    const segments = file[offset + 26]!;
    let at = offset + 27 + segments;
    for (const value of file.subarray(offset + 27, offset + 27 + segments)) {
      if (pageIndex >= 2) packets.push(file.subarray(at, at + value));
      at += value;
    }
    offset = at;
    pageIndex++;
  }
  return packets;
}

describe('TransmissionRecording', () => {
  it('keeps the packets in order, fills a gap with silence and drops late repeats', () => {
    const { time, bounds } = clock();
    const recording = new TransmissionRecording('ava', bounds());
    talk(recording, time, 20, (i) => ({ timestamp: 1000 + i * 960, payload: frame(i) }));
    recording.push(7, 1000 + 5 * 960, frame(99)); // late duplicate
    // Three packets lost: 20, 21, 22.
    time.now += 60;
    recording.push(7, 1000 + 23 * 960, frame(23));
    const done = recording.finish()!;
    expect(done.durationMs).toBe(24 * 20);
    const packets = audioPackets(done.ogg);
    expect(packets).toHaveLength(24);
    expect(packets[19]).toEqual(frame(19));
    expect(packets.slice(20, 23)).toEqual([0, 1, 2].map(() => Buffer.from([0xf8, 0xff, 0xfe])));
    expect(packets[23]).toEqual(frame(23));
  });

  it('keeps one source only: a second device of the same talker does not mix in', () => {
    const { time, bounds } = clock();
    const recording = new TransmissionRecording('ava', bounds());
    for (let i = 0; i < 20; i++) {
      recording.push(1, i * 960, frame(1));
      recording.push(2, i * 960 + 5, frame(2));
      time.now += 20;
    }
    const packets = audioPackets(recording.finish()!.ogg);
    expect(packets).toHaveLength(20);
    expect(packets.every((p) => p.equals(frame(1)))).toBe(true);
  });

  it('drops a slip of the finger (under 300 ms)', () => {
    const { time, bounds } = clock();
    const recording = new TransmissionRecording('ava', bounds());
    talk(recording, time, 10, (i) => ({ timestamp: i * 960, payload: frame(i) }));
    expect(recording.finish()).toBeNull();
  });

  it('timestamps a client writes cannot make a 5 s hold longer than 5 s', () => {
    const { time, bounds } = clock(1_000_000);
    const recording = new TransmissionRecording('ava', bounds({ maxMs: 5_000 }));
    // Each packet claims to come five seconds after the last one.
    talk(recording, time, 250, (i) => ({ timestamp: i * 240_000, payload: frame(i) }));
    const done = recording.finish()!;
    expect(done.startedAt.getTime()).toBe(1_000_000);
    expect(done.durationMs).toBeLessThanOrEqual(5_000);
    expect(done.durationMs).toBeGreaterThan(4_000);
  });

  it('keeps nothing past the hold’s limit, however long the packets keep coming', () => {
    const { time, bounds } = clock();
    const recording = new TransmissionRecording('ava', bounds({ maxMs: 5_000 }));
    talk(recording, time, 1_000, (i) => ({ timestamp: i * 960, payload: frame(i) }));
    expect(recording.finish()!.durationMs).toBeLessThanOrEqual(5_000);
    // Without a limit of its own, a recording still ends at the longest floor (300 s).
    const { time: t2, bounds: b2 } = clock();
    const endless = new TransmissionRecording('ava', b2());
    talk(endless, t2, 20_000, (i) => ({ timestamp: i * 960, payload: frame(i) }));
    expect(endless.finish()!.durationMs).toBeLessThanOrEqual(300_000);
  });

  it('keeps at most 64 kbit/s: full-size packets past it are dropped', () => {
    const { time, bounds } = clock();
    const recording = new TransmissionRecording('ava', bounds({ maxMs: 5_000 }));
    const big = (i: number) => Buffer.concat([frame(i), Buffer.alloc(1_196, i)]);
    talk(recording, time, 250, (i) => ({ timestamp: i * 960, payload: big(i) }));
    const done = recording.finish()!;
    // 5 s at 8 kB/s after a first second's worth, plus the Ogg pages around it.
    expect(done.ogg.length).toBeLessThan(RECORDING_BYTES_PER_SECOND * 6 + 4_000);
    expect(done.ogg.length).toBeGreaterThan(RECORDING_BYTES_PER_SECOND * 4);
  });
});
