import { describe, expect, it } from 'vitest';
import { TransmissionRecording } from './transmission-recording.js';

const frame = (byte: number) => Buffer.from([0xf8, byte, byte, byte]);

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
    const recording = new TransmissionRecording('ava', new Date(0));
    for (let i = 0; i < 20; i++) recording.push(7, 1000 + i * 960, frame(i));
    recording.push(7, 1000 + 5 * 960, frame(99)); // late duplicate
    // Three packets lost: 20, 21, 22.
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
    const recording = new TransmissionRecording('ava');
    for (let i = 0; i < 20; i++) {
      recording.push(1, i * 960, frame(1));
      recording.push(2, i * 960 + 5, frame(2));
    }
    const packets = audioPackets(recording.finish()!.ogg);
    expect(packets).toHaveLength(20);
    expect(packets.every((p) => p.equals(frame(1)))).toBe(true);
  });

  it('drops a slip of the finger (under 300 ms)', () => {
    const recording = new TransmissionRecording('ava');
    for (let i = 0; i < 10; i++) recording.push(1, i * 960, frame(i));
    expect(recording.finish()).toBeNull();
  });
});
