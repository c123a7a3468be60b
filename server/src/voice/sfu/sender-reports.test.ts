import { RtcpSourceDescriptionPacket, RtcpSrPacket, type RtcpPacket } from 'werift';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SENDER_REPORT_INTERVAL_MS, SenderReports, type ReportSchedule } from './sender-reports.js';
import type { ReportingSender } from './werift-internals.js';

/** A forwarded stream's sender as werift has it; its transport keeps what it was asked to send. */
function sender(ssrc: number): ReportingSender & { reports: RtcpPacket[][] } {
  const reports: RtcpPacket[][] = [];
  return {
    ssrc,
    cname: 'chirp-sfu',
    packetCount: 0,
    octetCount: 0,
    rtpTimestamp: 0,
    ntpTimestamp: 0n,
    reports,
    dtlsTransport: {
      state: 'connected',
      sendRtcp: (packets) => {
        reports.push(packets);
        return Promise.resolve();
      },
    },
  };
}

const schedules = new WeakMap<ReportingSender, ReportSchedule>();

/**
 * What the forwarder does per packet: count it, then tell the reports, unless the schedule it was
 * given is still active.
 */
function forward(reports: SenderReports, s: ReportingSender, packets: number): void {
  for (let i = 0; i < packets; i++) {
    s.packetCount++;
    s.octetCount += 80;
    s.rtpTimestamp += 960;
    if (!schedules.get(s)?.active) schedules.set(s, reports.sent(s));
  }
}

describe('SenderReports', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs no timer until a stream sends, then reports its counts about every 5 s, not every second', () => {
    const reports = new SenderReports(undefined, () => 0.5);
    const ann = sender(1111);
    expect(vi.getTimerCount()).toBe(0);

    forward(reports, ann, 50);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(ann.reports).toHaveLength(1);
    const [sr, sdes] = ann.reports[0]!;
    expect(sr).toBeInstanceOf(RtcpSrPacket);
    expect((sr as RtcpSrPacket).ssrc).toBe(1111);
    expect((sr as RtcpSrPacket).senderInfo).toMatchObject({ packetCount: 50, octetCount: 4000 });
    expect(sdes).toBeInstanceOf(RtcpSourceDescriptionPacket);
    expect(ann.lastSRtimestamp).toBeTypeOf('number');

    // Still sending: the next report comes SENDER_REPORT_INTERVAL_MS later, not before.
    for (let t = 0; t < SENDER_REPORT_INTERVAL_MS; t += 20) {
      forward(reports, ann, 1);
      vi.advanceTimersByTime(20);
      if (t < SENDER_REPORT_INTERVAL_MS - 300) expect(ann.reports).toHaveLength(1);
    }
    expect(ann.reports).toHaveLength(2);
    expect((ann.reports[1]![0] as RtcpSrPacket).senderInfo.packetCount).toBe(50 + 250);
  });

  it('stops reporting a stream that stopped sending, and stops its timer when none sends', () => {
    const reports = new SenderReports(undefined, () => 0.5);
    const ann = sender(1);
    const ben = sender(2);
    forward(reports, ann, 10);
    forward(reports, ben, 10);
    vi.advanceTimersByTime(1_000);
    expect([ann.reports.length, ben.reports.length]).toEqual([1, 1]);

    forward(reports, ben, 10); // only Ben goes on talking
    vi.advanceTimersByTime(SENDER_REPORT_INTERVAL_MS);
    expect([ann.reports.length, ben.reports.length]).toEqual([1, 2]);
    expect(reports.size).toBe(1);

    vi.advanceTimersByTime(SENDER_REPORT_INTERVAL_MS * 3);
    expect(ben.reports).toHaveLength(2);
    expect(reports.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    // Talking again starts the reports again: the schedule the forwarder kept went inactive.
    expect(schedules.get(ann)?.active).toBe(false);
    forward(reports, ann, 5);
    vi.advanceTimersByTime(1_000);
    expect(ann.reports).toHaveLength(2);
  });

  it('drops a stream whose transport closed without sending on it', () => {
    const reports = new SenderReports(undefined, () => 0.5);
    const ann = sender(1);
    forward(reports, ann, 10);
    (ann.dtlsTransport as { state: string }).state = 'closed';
    vi.advanceTimersByTime(1_000);
    expect(ann.reports).toHaveLength(0);
    expect(reports.size).toBe(0);
  });
});
