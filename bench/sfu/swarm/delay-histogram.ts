/** Delays in 0.05 ms bins up to 1 s, so 300 listeners × 50 packets/s travel over IPC as a few bins. */
const BIN_US = 50;
const BINS = 20_000;

export type HistogramBins = [bin: number, count: number][];

export class DelayHistogram {
  private readonly counts = new Uint32Array(BINS + 1);
  total = 0;

  add(delayUs: number): void {
    const bin = Math.min(BINS, Math.max(0, Math.floor(delayUs / BIN_US)));
    this.counts[bin]!++;
    this.total++;
  }

  merge(bins: HistogramBins): void {
    for (const [bin, count] of bins) {
      this.counts[bin]! += count;
      this.total += count;
    }
  }

  bins(): HistogramBins {
    const out: HistogramBins = [];
    this.counts.forEach((count, bin) => {
      if (count > 0) out.push([bin, count]);
    });
    return out;
  }

  /** Upper edge of the bin holding the p-th percentile, in milliseconds. */
  percentileMs(p: number): number {
    if (this.total === 0) return Number.NaN;
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (let bin = 0; bin <= BINS; bin++) {
      seen += this.counts[bin]!;
      if (seen >= rank) return ((bin + 1) * BIN_US) / 1000;
    }
    return Number.NaN;
  }
}
