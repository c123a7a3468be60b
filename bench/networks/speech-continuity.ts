/**
 * A known test signal and its score at the listener: "speech" of tone segments whose pitch and
 * level change every 60 ms in a seeded order, and the share of 20 ms frames that arrive with the
 * pitch and level that were sent. Concealment repeats the last pitch and fades, so a frame lost
 * and concealed across a change of segment does not match; a frame recovered (RED, FEC) does. What
 * the listener's jitter buffer does to time (stretching it while it grows, shrinking it while it
 * drains) moves the speech by a few ms without losing a word, so each 300 ms is matched at its own
 * lag, within 30 ms of the lag before it.
 * Pure functions: the talker page plays the plan, the listener page scores what it recorded.
 */
export const SEGMENT_MS = 60;
export const FRAME_MS = 20;
/** Speech scored at one lag: 300 ms, five segments. */
const BLOCK_SEGMENTS = 5;
/** How far one block's lag may move from the block before it. */
const DRIFT_MS = 30;
const FREQUENCIES = [300, 420, 540, 660, 780, 900];
const LEVELS = [0.5, 0.25];

export interface Segment {
  frequency: number;
  /** Peak amplitude of the sine. */
  level: number;
}

export function speechPlan(seed: number, durationMs: number): Segment[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const plan: Segment[] = [];
  let last = -1;
  for (let i = 0; i < Math.floor(durationMs / SEGMENT_MS); i++) {
    let pick = Math.floor(next() * FREQUENCIES.length);
    if (pick === last) pick = (pick + 1) % FREQUENCIES.length;
    last = pick;
    plan.push({
      frequency: FREQUENCIES[pick]!,
      level: LEVELS[Math.floor(next() * LEVELS.length)]!,
    });
  }
  return plan;
}

export interface ContinuityResult {
  /** Share of frames whose pitch and level match the plan, 0..1. */
  score: number;
  frames: number;
  /** Where the plan's start was found in the recording, ms from the recording's start. */
  lagMs: number;
}

/**
 * Scores a recording against a plan whose first segment starts somewhere in
 * [earliestMs, latestMs] of the recording (the search finds where, 1 ms steps).
 */
export function scoreContinuity(
  samples: Float32Array,
  sampleRate: number,
  plan: Segment[],
  earliestMs: number,
  latestMs: number,
): ContinuityResult {
  const n = samples.length;
  const squares = new Float64Array(n + 1);
  const crossings = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const s = samples[i]!;
    squares[i + 1] = squares[i]! + s * s;
    const crossed = i > 0 && samples[i - 1]! < 0 !== s < 0 ? 1 : 0;
    crossings[i + 1] = crossings[i]! + crossed;
  }
  const frameSamples = Math.round((sampleRate * FRAME_MS) / 1000);
  const perSegment = SEGMENT_MS / FRAME_MS;
  const frames = plan.length * perSegment;
  const frame = (start: number) => {
    const end = start + frameSamples;
    const rms = Math.sqrt((squares[end]! - squares[start]!) / frameSamples);
    const frequency = (crossings[end]! - crossings[start]!) / 2 / (FRAME_MS / 1000);
    return { rms, frequency };
  };
  const matches = (start: number, segment: Segment, gain?: number) => {
    if (start < 0 || start + frameSamples > n) return false;
    const heard = frame(start);
    if (Math.abs(heard.frequency - segment.frequency) > 40) return false;
    if (gain === undefined) return true;
    const expected = (segment.level / Math.SQRT2) * gain;
    return Math.abs(20 * Math.log10(heard.rms / expected)) <= 3;
  };
  /** Frames [from, to) that match at this lag. */
  const matchedFrames = (lagSamples: number, from: number, to: number, gain?: number) => {
    let matched = 0;
    for (let f = from; f < to; f++)
      if (matches(lagSamples + f * frameSamples, plan[Math.floor(f / perSegment)]!, gain))
        matched++;
    return matched;
  };
  const msToSamples = (ms: number) => Math.round((ms * sampleRate) / 1000);
  let bestLag = 0;
  let best = -1;
  for (let ms = Math.max(0, earliestMs); ms <= latestMs; ms++) {
    const matched = matchedFrames(msToSamples(ms), 0, frames);
    if (matched > best) {
      best = matched;
      bestLag = ms;
    }
  }
  // The path's gain (a browser may play a little quieter or louder): the median over frames whose
  // pitch matched, so a level is judged against the level the path plays a clean frame at.
  const ratios: number[] = [];
  const lagSamples = msToSamples(bestLag);
  for (let f = 0; f < frames; f++) {
    const start = lagSamples + f * frameSamples;
    if (!matches(start, plan[Math.floor(f / perSegment)]!)) continue;
    ratios.push(frame(start).rms / (plan[Math.floor(f / perSegment)]!.level / Math.SQRT2));
  }
  ratios.sort((a, b) => a - b);
  const gain = ratios.length ? ratios[Math.floor(ratios.length / 2)]! : 1;
  // A jitter buffer stretches and shrinks time as it adapts (and after each concealment), so what
  // is heard drifts by a few ms against the plan without a word being lost. Each block of speech
  // is scored at its own lag, found within DRIFT_MS of the block before it.
  const blockFrames = BLOCK_SEGMENTS * perSegment;
  let lag = bestLag;
  let matched = 0;
  for (let from = 0; from < frames; from += blockFrames) {
    const to = Math.min(frames, from + blockFrames);
    let blockBest = -1;
    let blockLag = lag;
    for (let ms = lag - DRIFT_MS; ms <= lag + DRIFT_MS; ms++) {
      const count = matchedFrames(msToSamples(ms), from, to, gain);
      if (
        count > blockBest ||
        (count === blockBest && Math.abs(ms - lag) < Math.abs(blockLag - lag))
      ) {
        blockBest = count;
        blockLag = ms;
      }
    }
    matched += blockBest;
    // A block heard not at all says nothing about where the next one is.
    if (blockBest > 0) lag = blockLag;
  }
  return { score: matched / frames, frames, lagMs: bestLag };
}
