import type { RtpPacket } from 'werift';
import type { ForwardedPacket } from './rtp-forwarder.js';
import type { SfuCounters } from './sfu-counters.js';
import type { SfuEvents } from './sfu-events.js';
import type { SfuSession } from './sfu-session.js';
import type { SilenceSweep, SweptRoom } from './silence-sweep.js';

/** Silence is reported when a talker's packets stop for this long (muted with DTX, or gone). */
export const PACKET_SILENCE_MS = 600;
/** An Opus frame (CELT, 20 ms) that decodes to digital silence. */
const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
/**
 * After an admin mute, this many of the talker's packets still go out, emptied to silence: the
 * listeners' decoders then fall silent at once instead of concealing the "lost" audio for a while.
 */
const SILENCE_FRAMES_AFTER_MUTE = 10;

/**
 * A voice room: every publisher's audio goes to every other participant, never back to its sender.
 * Admin-muted users (and, in a walkie-talkie room, everyone without the floor) stay in the room
 * and keep listening; their packets are simply not forwarded.
 */
export class SfuRoom implements SweptRoom {
  readonly sessions = new Map<string, SfuSession>();

  constructor(
    readonly name: string,
    /** The forwarding gate: a held publisher (admin-muted, or without the floor) is not forwarded. */
    private readonly isHeld: (userId: string) => boolean,
    private readonly events: SfuEvents,
    private readonly counters: SfuCounters,
    /** Watches this room for talkers who went quiet while someone in it speaks. */
    private readonly silenceSweep: SilenceSweep,
    /** The users with a block between them and this one (either way): they never hear each other. */
    private readonly blockRelationsOf: (userId: string) => ReadonlySet<string> | undefined,
    /** The tap: sees every packet that went through the gate and was forwarded as speech. */
    private readonly onForwarded?: (publisher: SfuSession, rtp: RtpPacket) => void,
  ) {}

  get isEmpty(): boolean {
    return this.sessions.size === 0;
  }

  add(session: SfuSession): void {
    for (const other of this.sessions.values()) {
      if (other.canPublish) session.peer.addForward(other.identity, other.userId);
      if (session.canPublish) other.peer.addForward(session.identity, session.userId);
      other.send({ type: 'participant_joined', participant: session.info });
    }
    this.sessions.set(session.identity, session);
  }

  remove(session: SfuSession): boolean {
    if (this.sessions.get(session.identity) !== session) return false;
    this.sessions.delete(session.identity);
    for (const other of this.sessions.values()) {
      other.peer.removeForward(session.identity);
      other.send({ type: 'participant_left', identity: session.identity, userId: session.userId });
    }
    return true;
  }

  /** Called for every RTP packet a publisher sends. */
  forwardFrom(publisher: SfuSession, rtp: RtpPacket): void {
    const now = Date.now();
    // Past its packet or byte rate, a publisher's packet goes nowhere (see PublisherRateLimit).
    if (!publisher.publishLimit.admit(rtp.payload.length, now)) return;
    publisher.lastPacketAt = now;
    this.counters.received(publisher, rtp.header.sequenceNumber);
    // Everything below (RED, the forwarders, the recorder's tap) sees the wall-clock timeline;
    // werift hands each subscriber its own copy of the packet.
    const { header } = rtp;
    header.timestamp = publisher.timeline.restamp(header.ssrc, header.timestamp, now);
    if (this.isHeld(publisher.userId)) {
      if (publisher.silenceFramesLeft > 0) {
        publisher.silenceFramesLeft--;
        this.forwardToOthers(publisher, { header, payload: OPUS_SILENCE });
      }
      return;
    }
    const change = publisher.speaking.push(rtp.payload.length, now);
    if (change) this.reportSpeaking(publisher, change.speaking, change.level);
    const { payload } = rtp;
    this.forwardToOthers(publisher, {
      header,
      payload,
      red: publisher.red.encode(header.sequenceNumber, header.timestamp, payload),
    });
    this.onForwarded?.(publisher, rtp);
  }

  /** Admin mute takes effect on the next packet; listeners' talking indicators drop at once. */
  publisherMuted(userId: string, muted: boolean): void {
    for (const session of this.sessions.values()) {
      if (session.userId !== userId) continue;
      session.silenceFramesLeft = muted ? SILENCE_FRAMES_AFTER_MUTE : 0;
      if (muted) {
        const change = session.speaking.silence();
        if (change) this.reportSpeaking(session, false, 0);
      }
      for (const other of this.sessions.values()) {
        other.send({ type: 'publisher_muted', identity: session.identity, userId, muted });
      }
    }
  }

  /**
   * Walkie-talkie: the user lost the floor (released, expired, or an admin cut in). Their packets
   * stop as after an admin mute, without telling anyone they were muted.
   */
  floorLost(userId: string): void {
    for (const session of this.sessions.values()) {
      if (session.userId !== userId) continue;
      session.silenceFramesLeft = SILENCE_FRAMES_AFTER_MUTE;
      if (session.speaking.silence()) this.reportSpeaking(session, false, 0);
    }
  }

  private forwardToOthers(publisher: SfuSession, packet: ForwardedPacket): void {
    const blocked = this.blockRelationsOf(publisher.userId);
    let sent = 0;
    for (const listener of this.sessions.values()) {
      if (listener === publisher || blocked?.has(listener.userId)) continue;
      this.counters.sent(listener.peer.forward(publisher.identity, packet));
      sent++;
    }
    this.counters.forwarded(sent);
  }

  dispose(): void {
    this.silenceSweep.forget(this);
  }

  sweepSilence(now: number): boolean {
    let speaking = false;
    for (const session of this.sessions.values()) {
      if (!session.speaking.isSpeaking) continue;
      if (now - session.lastPacketAt >= PACKET_SILENCE_MS && session.speaking.silence())
        this.reportSpeaking(session, false, 0);
      else speaking = true;
    }
    return speaking;
  }

  private reportSpeaking(session: SfuSession, speaking: boolean, level: number): void {
    if (speaking) this.silenceSweep.watch(this);
    const event = { roomName: this.name, identity: session.identity, userId: session.userId };
    this.events.emit('speakingChanged', { ...event, speaking, level });
    for (const other of this.sessions.values()) {
      other.send({
        type: 'speaking',
        identity: session.identity,
        userId: session.userId,
        speaking,
        level,
      });
    }
  }
}
