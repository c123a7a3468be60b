import { describe, expect, it } from 'vitest';
import {
  FRAME_MS,
  scoreContinuity,
  SEGMENT_MS,
  speechPlan,
  type Segment,
} from './speech-continuity.js';

const RATE = 48_000;

/** Renders a plan as the talker's oscillator would (continuous phase), after `leadMs` of silence. */
function render(plan: Segment[], leadMs: number, gain = 1): Float32Array {
  const lead = (leadMs * RATE) / 1000;
  const per = (SEGMENT_MS * RATE) / 1000;
  const out = new Float32Array(lead + plan.length * per + RATE / 10);
  let phase = 0;
  plan.forEach((segment, s) => {
    for (let i = 0; i < per; i++) {
      phase += (2 * Math.PI * segment.frequency) / RATE;
      out[lead + s * per + i] = Math.sin(phase) * segment.level * gain;
    }
  });
  return out;
}

const frameSamples = (FRAME_MS * RATE) / 1000;

describe('speech continuity', () => {
  const plan = speechPlan(7, 3_000);

  it('finds the signal where it starts and scores a clean copy as whole, at any gain', () => {
    const result = scoreContinuity(render(plan, 137, 0.8), RATE, plan, 0, 400);
    expect(result.lagMs).toBe(137);
    expect(result.score).toBe(1);
  });

  it('counts frames that went silent or kept the previous pitch as lost', () => {
    const samples = render(plan, 50);
    const lead = (50 * RATE) / 1000;
    const frames = plan.length * (SEGMENT_MS / FRAME_MS);
    // Every fifth frame silent: a fifth of the frames is lost.
    for (let f = 0; f < frames; f += 5)
      samples.fill(0, lead + f * frameSamples, lead + (f + 1) * frameSamples);
    const result = scoreContinuity(samples, RATE, plan, 0, 200);
    expect(result.score).toBeCloseTo(0.8, 2);
  });

  it('follows the speech when the jitter buffer stretches time, without counting a word lost', () => {
    const samples = render(plan, 40);
    // 12 ms of silence inserted a second in: everything after is heard 12 ms later.
    const at = ((40 + 1_000) * RATE) / 1000;
    const gap = (12 * RATE) / 1000;
    const stretched = new Float32Array(samples.length + gap);
    stretched.set(samples.subarray(0, at));
    stretched.set(samples.subarray(at), at + gap);
    const result = scoreContinuity(stretched, RATE, plan, 0, 200);
    // Only the frame the gap fell in, and the block's frames around the shift, can miss.
    expect(result.score).toBeGreaterThan(0.97);
  });

  it('does not count a frame played at half its level', () => {
    const samples = render(plan, 0);
    for (let i = 0; i < frameSamples; i++) samples[i] = samples[i]! / 2;
    const result = scoreContinuity(samples, RATE, plan, 0, 0);
    expect(result.score).toBeCloseTo(1 - 1 / (plan.length * 3), 5);
  });

  it('plans the same speech for the same seed and never repeats a pitch twice in a row', () => {
    expect(speechPlan(7, 3_000)).toEqual(plan);
    expect(
      plan.every((segment, i) => i === 0 || segment.frequency !== plan[i - 1]!.frequency),
    ).toBe(true);
  });
});
