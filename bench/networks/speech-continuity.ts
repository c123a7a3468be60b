/**
 * A known test signal and its score at the listener: "speech" of tone segments whose pitch and
 * level change every 60 ms in a seeded order, and the share of 20 ms frames that arrive with the
 * pitch and level that were sent. Concealment repeats the last pitch and fades, so a frame lost
 * and concealed across a change of segment does not match; a frame recovered (RED, FEC) does.
 * Pure functions: the talker page plays the plan, the listener page scores what it recorded.
 */
export const SEGMENT_MS = 60;
export const FRAME_MS = 20;
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
  const pitchMatches = (lagSamples: number, gain?: number) => {
    let matched = 0;
    for (let f = 0; f < frames; f++) {
      const start = lagSamples + f * frameSamples;
      if (start < 0 || start + frameSamples > n) continue;
      const segment = plan[Math.floor(f / perSegment)]!;
      const heard = frame(start);
      if (Math.abs(heard.frequency - segment.frequency) > 40) continue;
      if (gain !== undefined) {
        const expected = (segment.level / Math.SQRT2) * gain;
        if (Math.abs(20 * Math.log10(heard.rms / expected)) > 3) continue;
      }
      matched++;
    }
    return matched;
  };
  let bestLag = 0;
  let best = -1;
  const msToSamples = (ms: number) => Math.round((ms * sampleRate) / 1000);
  for (let ms = Math.max(0, earliestMs); ms <= latestMs; ms++) {
    const matched = pitchMatches(msToSamples(ms));
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
    if (start < 0 || start + frameSamples > n) continue;
    const segment = plan[Math.floor(f / perSegment)]!;
    const heard = frame(start);
    if (Math.abs(heard.frequency - segment.frequency) <= 40)
      ratios.push(heard.rms / (segment.level / Math.SQRT2));
  }
  ratios.sort((a, b) => a - b);
  const gain = ratios.length ? ratios[Math.floor(ratios.length / 2)]! : 1;
  return { score: pitchMatches(lagSamples, gain) / frames, frames, lagMs: bestLag };
}
