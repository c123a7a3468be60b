import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_RECORDING_MS, type FinishedTransmission } from './transmission-recording.js';
import {
  RECORDING_END_GRACE_MS,
  TransmissionRecorder,
  type RecordingOutcome,
} from './transmission-recorder.js';

const CHANNEL = 7;

/** The audio packets of a file (after the head and tags pages); packets here are < 255 bytes. */
function audioPackets(file: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  for (let offset = 0, page = 0; offset < file.length; page++) {
    const segments = file[offset + 26]!;
    let at = offset + 27 + segments;
    for (const size of file.subarray(offset + 27, offset + 27 + segments)) {
      if (page >= 2) packets.push(file.subarray(at, at + size));
      at += size;
    }
    offset = at;
  }
  return packets;
}

/**
 * A recorder as a provider wires it: the test is the media path's tap (packets of whoever talks)
 * and the floor; what it keeps, and who heard it, is what a caller sees.
 */
function setup(inRoom: () => string[] = () => ['ava', 'ben', 'cal']) {
  const time = { now: 1_000_000 };
  const kept: { channelId: number; transmission: FinishedTransmission; heardBy: string[] }[] = [];
  const outcomes: RecordingOutcome[] = [];
  const recorder = new TransmissionRecorder({
    listeners: () => inRoom(),
    keep: async (channelId, transmission, heardBy) => {
      kept.push({ channelId, transmission, heardBy });
    },
    finished: (outcome) => outcomes.push(outcome),
    failed: (error) => {
      throw error;
    },
    now: () => time.now,
  });
  /** `count` 20 ms packets from each talker at once (its own SSRC, its id as the fill byte). */
  let timestamp = 0;
  const talk = (count: number, talkers: Record<string, number>) => {
    for (let i = 0; i < count; i++) {
      for (const [userId, fill] of Object.entries(talkers))
        recorder.packet(CHANNEL, userId, fill, timestamp, Buffer.from([0xf8, fill, fill]));
      timestamp += 960;
      time.now += 20;
    }
  };
  return { time, kept, outcomes, recorder, talk };
}

/** keep() runs after the listeners are asked, a few microtasks after the floor change. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const fills = (transmission: FinishedTransmission) =>
  new Set(audioPackets(transmission.ogg).map((packet) => packet[1]));

afterEach(() => {
  vi.useRealTimers();
});

describe('the transmission recorder, fed by a provider', () => {
  it('keeps each holder’s transmission from their packets only, with who else heard it', async () => {
    const { time, kept, recorder, talk } = setup();
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    // The one who does not hold the floor sends first: a recorder keeping the first source heard
    // would keep theirs.
    talk(50, { ben: 2, ava: 1 });
    recorder.holderChanged(CHANNEL, 'ben', time.now + 60_000);
    talk(25, { ava: 1, ben: 2 });
    recorder.holderChanged(CHANNEL, null);
    await settle();

    expect(
      kept.map((k) => [k.channelId, k.transmission.speakerId, k.transmission.durationMs]),
    ).toEqual([
      [CHANNEL, 'ava', 1000],
      [CHANNEL, 'ben', 500],
    ]);
    expect(fills(kept[0]!.transmission)).toEqual(new Set([1]));
    expect(fills(kept[1]!.transmission)).toEqual(new Set([2]));
    expect(kept[0]!.transmission.ogg.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(kept.map((k) => k.heardBy)).toEqual([
      ['ben', 'cal'],
      ['ava', 'cal'],
    ]);
  });

  it('goes on through the same holder announced again, and keeps nothing of a slip of the finger', async () => {
    const { time, kept, outcomes, recorder, talk } = setup();
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    talk(10, { ava: 1 });
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    talk(10, { ava: 1 });
    recorder.holderChanged(CHANNEL, 'cal');
    talk(5, { cal: 3 });
    recorder.holderChanged(CHANNEL, null);
    await settle();
    expect(kept.map((k) => k.transmission.durationMs)).toEqual([400]);
    expect(outcomes.map((o) => [o.speakerId, o.recordedMs, o.transmission !== null])).toEqual([
      ['ava', 400, true],
      ['cal', 100, false],
    ]);
  });

  it('ends on a floor change heard from elsewhere, without starting one there', async () => {
    const { time, kept, recorder, talk } = setup();
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    talk(20, { ava: 1 });
    recorder.floorMovedOn(CHANNEL, 'ava');
    expect(recorder.speakerOf(CHANNEL)).toBe('ava');
    recorder.floorMovedOn(CHANNEL, 'ben');
    expect(recorder.speakerOf(CHANNEL)).toBeNull();
    talk(20, { ben: 2 });
    await settle();
    expect(kept.map((k) => k.transmission.speakerId)).toEqual(['ava']);
  });

  it('keeps nothing of a channel deleted while someone held its floor', async () => {
    const { time, kept, outcomes, recorder, talk } = setup();
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    talk(50, { ava: 1 });
    recorder.discard(CHANNEL);
    recorder.holderChanged(CHANNEL, null);
    await settle();
    expect(kept).toEqual([]);
    expect(outcomes).toEqual([]);
  });

  it('finishes a recording whose end is never heard, after its hold’s limit', async () => {
    vi.useFakeTimers();
    const { time, kept, recorder, talk } = setup();
    recorder.holderChanged(CHANNEL, 'ava', time.now + 2_000);
    talk(150, { ava: 1 }); // 3 s of packets: only the hold's 2 s are kept
    vi.advanceTimersByTime(2_000 + RECORDING_END_GRACE_MS - 1);
    await settle();
    expect(kept).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(kept.map((k) => k.transmission.durationMs)).toEqual([2000]);

    // Without a known end, at the longest floor.
    recorder.holderChanged(CHANNEL, 'ben');
    talk(20, { ben: 2 });
    vi.advanceTimersByTime(MAX_RECORDING_MS + RECORDING_END_GRACE_MS);
    await settle();
    expect(kept.map((k) => k.transmission.speakerId)).toEqual(['ava', 'ben']);
  });

  it('asks for the listeners when the transmission ends, not later', async () => {
    const room = ['ava', 'ben'];
    const { time, kept, recorder, talk } = setup(() => [...room]);
    recorder.holderChanged(CHANNEL, 'ava', time.now + 60_000);
    talk(20, { ava: 1 });
    recorder.holderChanged(CHANNEL, null);
    room.pop(); // ben leaves right after
    await settle();
    expect(kept[0]?.heardBy).toEqual(['ben']);
  });
});
