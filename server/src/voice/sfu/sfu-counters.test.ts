import { describe, expect, it } from 'vitest';
import { SfuCounters } from './sfu-counters.js';

describe('SfuCounters', () => {
  it('counts gaps in each publisher’s sequence numbers as lost, across the 16-bit wrap', () => {
    const counters = new SfuCounters();
    const ann = {};
    const bob = {};
    for (const seq of [65533, 65534, 1, 2]) counters.received(ann, seq); // 65535 and 0 lost
    for (const seq of [10, 11, 12]) counters.received(bob, seq);
    expect(counters.totals).toMatchObject({ packetsReceived: 7, packetsLost: 2 });
  });

  it('does not count a duplicate, a reordering or a restarted stream as loss', () => {
    const counters = new SfuCounters();
    const ann = {};
    for (const seq of [100, 100, 99, 101, 40_000]) counters.received(ann, seq);
    expect(counters.totals.packetsLost).toBe(0);
  });

  it('adds up forwarded packets', () => {
    const counters = new SfuCounters();
    counters.forwarded(3);
    counters.forwarded(2);
    expect(counters.totals.packetsForwarded).toBe(5);
  });

  it('tells packets sent by the fast path from those handed to werift', () => {
    const counters = new SfuCounters();
    for (const path of ['fast', 'fast', 'slow', undefined] as const) counters.sent(path);
    expect(counters.totals).toMatchObject({ fastPathPackets: 2, slowPathPackets: 1 });
  });
});
