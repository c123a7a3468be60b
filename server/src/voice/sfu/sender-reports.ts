import {
  RtcpSenderInfo,
  RtcpSourceDescriptionPacket,
  RtcpSrPacket,
  SourceDescriptionChunk,
  SourceDescriptionItem,
  compactNtp,
  timestampSeconds,
  type RtcpPacket,
} from 'werift';
import type { ReportingSender } from './werift-internals.js';

/**
 * Mean time between two RTCP sender reports of one forwarded stream: 5 s, Chrome's own interval for
 * audio (RFC 3550's minimum). werift's sender reports every 0.5–1.5 s from the moment it first
 * sends, whether or not anything was sent since, which made reports a sixth of forwarding's CPU.
 */
export const SENDER_REPORT_INTERVAL_MS = 5_000;
/** The first report follows the first packet after 0.5–1.5 s, as werift's did. */
const FIRST_REPORT_MS = 1_000;
const TICK_MS = 250;

/** A stream's place in the reports; the forwarder keeps it to skip a lookup per packet. */
export interface ReportSchedule {
  /** False once the stream stopped being reported on; the next packet must call `sent` again. */
  readonly active: boolean;
}

interface Schedule extends ReportSchedule {
  active: boolean;
  at: number;
  /** The sender's packet count at its last report: unchanged means it stopped sending. */
  reportedCount: number;
  /** Brings the sender's report fields up to date when they are kept elsewhere (in C). */
  refresh: (() => void) | undefined;
}

/**
 * Sender reports for every forwarded stream of one SFU, on one timer that runs only while some
 * stream is sending. A stream that sent nothing since its last report is no longer a sender
 * (RFC 3550 §6.4) and gets none until it sends again, so silent rooms cost no RTCP at all.
 */
export class SenderReports {
  private readonly schedules = new Map<ReportingSender, Schedule>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly random: () => number = Math.random,
  ) {}

  /** How many streams are being reported on. */
  get size(): number {
    return this.schedules.size;
  }

  /**
   * `sender` just sent a packet; a stream not being reported on starts its reports. Until the
   * returned schedule turns inactive, later packets need not call this again. A forwarder that
   * counts its packets elsewhere passes `refresh`, which copies the counts and the clock pair into
   * `sender`'s fields; it is called before each look at them.
   */
  sent(sender: ReportingSender, refresh?: () => void): ReportSchedule {
    const known = this.schedules.get(sender);
    if (known) return known;
    refresh?.();
    const schedule: Schedule = {
      active: true,
      at: Date.now() + FIRST_REPORT_MS * (0.5 + this.random()),
      reportedCount: sender.packetCount - 1,
      refresh,
    };
    this.schedules.set(sender, schedule);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
    return schedule;
  }

  close(): void {
    for (const schedule of this.schedules.values()) schedule.active = false;
    this.schedules.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    for (const [sender, schedule] of this.schedules) {
      if (now < schedule.at) continue;
      schedule.refresh?.();
      if (
        sender.stopped ||
        sender.dtlsTransport.state !== 'connected' ||
        sender.packetCount === schedule.reportedCount
      ) {
        schedule.active = false;
        this.schedules.delete(sender);
        continue;
      }
      schedule.reportedCount = sender.packetCount;
      schedule.at = now + SENDER_REPORT_INTERVAL_MS * (0.5 + this.random());
      this.report(sender);
    }
    if (this.schedules.size === 0) this.close();
  }

  private report(sender: ReportingSender): void {
    const packets: RtcpPacket[] = [
      new RtcpSrPacket({
        ssrc: sender.ssrc,
        senderInfo: new RtcpSenderInfo({
          ntpTimestamp: sender.ntpTimestamp,
          rtpTimestamp: sender.rtpTimestamp,
          packetCount: sender.packetCount,
          octetCount: sender.octetCount,
        }),
      }),
    ];
    // werift reads these two to compute the round-trip time from the listener's receiver reports.
    sender.lastSRtimestamp = compactNtp(sender.ntpTimestamp);
    sender.lastSentSRTimestamp = timestampSeconds();
    if (sender.cname) {
      packets.push(
        new RtcpSourceDescriptionPacket({
          chunks: [
            new SourceDescriptionChunk({
              source: sender.ssrc,
              items: [new SourceDescriptionItem({ type: 1, text: sender.cname })],
            }),
          ],
        }),
      );
    }
    sender.dtlsTransport.sendRtcp(packets).catch(this.onError);
  }
}
