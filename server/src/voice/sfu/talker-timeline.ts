/** Opus RTP clock: 48,000 ticks a second whatever the audio's own rate. */
const TICKS_PER_MS = 48;
/** One 20 ms Opus frame: a talker's timeline moves by whole frames. */
const FRAME_TICKS = 960;
/**
 * A packet that comes this much later than its timestamp says starts a new stretch of the talker's
 * timeline. Well above the upstream jitter a jitter buffer should learn from, well below any pause
 * in sending (a talker's microphone switched off, or off the air).
 */
export const RESTAMP_AFTER_LATE_MS = 100;
/**
 * ...and only after this long without a newer packet: a pause in sending. After a burst of upstream
 * loss the next frames (werift recovers them from RED) come a few frames late; moving the timeline
 * for those put a gap into the listeners' audio at every burst (`npm run bench networks`, bursts:
 * continuity 23 % against 86 %).
 */
export const RESTAMP_AFTER_PAUSE_MS = 300;

/**
 * Keeps one talker's RTP timestamps in step with the wall clock across pauses in sending.
 *
 * A browser whose microphone is off sends nothing (decision 059), but Chrome's RTP clock stops with
 * it: the first packet after a switch-off, taken out of the sender with `replaceTrack(null)`,
 * carries the timestamp right after the last one sent, however long the pause was (with
 * `encodings[0].active = false` the clock runs about 8 % slow instead). A listener's jitter buffer
 * then reads every talk's first packet as one that arrived seconds late and grew its target
 * towards a second (measured in Chromium: 960 ms after three talks). Here each packet that comes
 * later than its timestamp says by `RESTAMP_AFTER_LATE_MS` or more moves the talker's timeline on
 * by the time that went missing, in whole frames, so listeners, the RED encoder and the recorder
 * see the pause as the gap it was. Sequence numbers are left alone: nothing was lost.
 */
export class TalkerTimeline {
  /** Added to every timestamp of this talker (mod 2^32). */
  private offset = 0;
  private ssrc: number | undefined;
  /** The newest source timestamp seen and when it arrived. */
  private newest = 0;
  private newestAt = 0;

  /** The timestamp to forward for a packet of `ssrc` with `timestamp`, arrived at `now` (ms). */
  restamp(ssrc: number, timestamp: number, now: number): number {
    if (ssrc !== this.ssrc) {
      // A new stream starts its own clock; forwarders bridge a change of source themselves.
      this.ssrc = ssrc;
      this.newest = timestamp;
      this.newestAt = now;
      return (timestamp + this.offset) >>> 0;
    }
    const ahead = (timestamp - this.newest) | 0;
    if (ahead > 0) {
      const lateMs = now - this.newestAt - ahead / TICKS_PER_MS;
      if (lateMs >= RESTAMP_AFTER_LATE_MS && now - this.newestAt >= RESTAMP_AFTER_PAUSE_MS) {
        const frames = Math.round((lateMs * TICKS_PER_MS) / FRAME_TICKS);
        this.offset = (this.offset + frames * FRAME_TICKS) >>> 0;
      }
      this.newest = timestamp;
      this.newestAt = now;
    }
    return (timestamp + this.offset) >>> 0;
  }
}
