import type { Page } from '@playwright/test';
import type { LatencyBenchGlobal } from '../sfu/latency-bench-api.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pairs each start with the first onset after it (and before the next start). */
export function latencies(starts: number[], onsets: number[]): number[] {
  const result: number[] = [];
  starts.forEach((start, i) => {
    const next = starts[i + 1] ?? Number.POSITIVE_INFINITY;
    const onset = onsets.find((o) => o >= start - 2 && o < next);
    if (onset !== undefined) result.push(onset - start);
  });
  return result;
}

/**
 * Fires `count` starts (a tone burst, a microphone switched on) at the talker and returns, for each,
 * the time to the onset leaving the listener's audio output. Three warm-up starts are not counted.
 */
export async function collectOnsets(
  listener: Page,
  count: number,
  fire: () => Promise<number>,
): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fire();
  await sleep(500);
  await listener.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.takeOnsets());
  const starts: number[] = [];
  for (let i = 0; i < count; i++) starts.push(await fire());
  await sleep(800);
  const onsets = await listener.evaluate(() =>
    (globalThis as unknown as LatencyBenchGlobal).bench.takeOnsets(),
  );
  return latencies(
    starts,
    onsets.map((o) => o.played),
  );
}
