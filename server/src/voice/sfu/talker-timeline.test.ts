import { describe, expect, it } from 'vitest';
import { RESTAMP_AFTER_LATE_MS, TalkerTimeline } from './talker-timeline.js';

const FRAME = 960;
const SSRC = 1234;

/** Feeds `count` frames 20 ms apart from `at`; returns the forwarded timestamps. */
function talk(timeline: TalkerTimeline, firstTimestamp: number, count: number, at: number) {
  return Array.from({ length: count }, (_, i) =>
    timeline.restamp(SSRC, (firstTimestamp + i * FRAME) >>> 0, at + i * 20),
  );
}

describe('TalkerTimeline (a talker’s timestamps follow the wall clock across pauses)', () => {
  it('leaves a stream that sends without pauses alone, DTX gaps included', () => {
    const timeline = new TalkerTimeline();
    expect(talk(timeline, 5_000, 3, 0)).toEqual([5_000, 5_960, 6_920]);
    // DTX: one frame 400 ms later, stamped 400 ms later.
    expect(timeline.restamp(SSRC, 6_920 + 20 * FRAME, 440)).toBe(6_920 + 20 * FRAME);
    // Upstream jitter under the threshold is the jitter buffer's to learn.
    const late = RESTAMP_AFTER_LATE_MS - 20;
    expect(timeline.restamp(SSRC, 6_920 + 21 * FRAME, 460 + late)).toBe(6_920 + 21 * FRAME);
  });

  it('moves the timeline on by a pause the browser’s RTP clock did not count, in whole frames', () => {
    const timeline = new TalkerTimeline();
    talk(timeline, 10_000, 50, 0);
    const last = 10_000 + 49 * FRAME;
    // 3 s with the microphone off (replaceTrack(null)): the next frame, due at 1,000 ms, comes at
    // 4,000 ms stamped as if no time had passed.
    const [first, second] = talk(timeline, last + FRAME, 2, 4_000);
    expect(first! - last).toBe(FRAME + 150 * FRAME);
    expect(second! - first!).toBe(FRAME);
    // The next pause adds to the first.
    const again = timeline.restamp(SSRC, last + 3 * FRAME, 4_040 + 1_000);
    expect(again - second!).toBe(FRAME + 50 * FRAME);
  });

  it('wraps at 2^32 and leaves reordered or recovered packets on the current timeline', () => {
    const timeline = new TalkerTimeline();
    const start = 0xffff_ffff - FRAME + 1;
    talk(timeline, start, 2, 0);
    // Due at 40 ms, comes 1 s later.
    const resumed = timeline.restamp(SSRC, (start + 2 * FRAME) >>> 0, 1_040);
    expect(resumed).toBe((start + 2 * FRAME + 50 * FRAME) >>> 0);
    // An older frame (recovered from RED) arriving after it does not move the timeline back.
    expect(timeline.restamp(SSRC, (start + FRAME) >>> 0, 1_041)).toBe(
      (start + FRAME + 50 * FRAME) >>> 0,
    );
    expect(timeline.restamp(SSRC, (start + 3 * FRAME) >>> 0, 1_060)).toBe((resumed + FRAME) >>> 0);
  });

  it('leaves frames that come late after a burst of upstream loss on the current timeline', () => {
    const timeline = new TalkerTimeline();
    talk(timeline, 2_000, 10, 0);
    // Eight frames lost; 160 ms later werift hands on the one before the next (recovered from RED),
    // 140 ms late: a burst, not a pause in sending.
    const last = 2_000 + 9 * FRAME;
    expect(timeline.restamp(SSRC, last + FRAME, 180 + 160)).toBe(last + FRAME);
    expect(timeline.restamp(SSRC, last + 2 * FRAME, 181 + 160)).toBe(last + 2 * FRAME);
  });

  it('starts a new stream’s clock afresh', () => {
    const timeline = new TalkerTimeline();
    talk(timeline, 1_000, 2, 0);
    // Another SSRC with its own random timestamps, much later: no pause to bridge here.
    expect(timeline.restamp(SSRC + 1, 777_000, 60_000)).toBe(777_000);
    expect(timeline.restamp(SSRC + 1, 777_960, 60_020)).toBe(777_960);
  });
});
