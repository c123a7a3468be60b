import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { MediaStreamTrack, RTCIceServer, RTCPeerConnectionConfig } from 'werift';
import {
  VOICE_SIGNALLING_VERSION,
  type ServerVoiceMessage,
  type VoiceParticipantInfo,
} from '../../../../protocol/voice-signalling.js';
import type { SenderReports } from './sender-reports.js';
import type { SfuLogger } from './sfu-logger.js';
import { PublisherRateLimit } from './publisher-rate-limit.js';
import { SfuPeer } from './sfu-peer.js';
import { RedEncoder } from './opus-red.js';
import { SpeakingDetector } from './speaking-detector.js';
import { TalkerTimeline } from './talker-timeline.js';

/** What a checked voice token says, as far as the SFU uses it. */
export interface SfuToken {
  identity: string;
  userId: string;
  name: string;
  roomName: string;
  canPublish: boolean;
  /** The sign-in session it was issued to, when the token names one. */
  sessionId: string | undefined;
}

export interface SfuSessionHooks {
  onPublisherTrack: (session: SfuSession, track: MediaStreamTrack) => void;
  /** The peer connection is gone for good (failed and not restarted in time, or negotiation broke). */
  onDead: (session: SfuSession, reason: string) => void;
}

/**
 * One participant's presence in a room: the verified identity, its server-side peer connection,
 * and the signalling socket currently attached (none while the client is resuming).
 */
export class SfuSession {
  readonly sessionId = randomUUID();
  readonly identity: string;
  readonly userId: string;
  readonly name: string;
  readonly roomName: string;
  readonly canPublish: boolean;
  /** The sign-in session the voice token was issued to, if it names one. */
  readonly signInSessionId: string | undefined;
  readonly peer: SfuPeer;
  readonly speaking = new SpeakingDetector();
  /** The packets and bytes a second this participant's microphone may have forwarded. */
  readonly publishLimit = new PublisherRateLimit();
  /** This talker's packets as Opus RED, for the listeners whose browsers take it. */
  readonly red = new RedEncoder();
  /** This talker's timestamps, moved on across pauses in sending (a microphone off between talks). */
  readonly timeline = new TalkerTimeline();
  socket: WebSocket | undefined;
  lastPacketAt = 0;
  /** Set by an admin mute: packets still to forward as silence before forwarding stops. */
  silenceFramesLeft = 0;
  private failedTimer: NodeJS.Timeout | undefined;
  private detachedTimer: NodeJS.Timeout | undefined;
  private stopPublisher: (() => void) | undefined;
  private readonly graceMs: number;

  constructor(
    token: SfuToken,
    options: {
      peerConfig: RTCPeerConnectionConfig;
      announcedIp: string | undefined;
      logger: SfuLogger;
      senderReports: SenderReports;
      /** How long a failed ICE connection or a missing socket is tolerated before the session ends. */
      graceMs: number;
    },
    private readonly hooks: SfuSessionHooks,
  ) {
    this.identity = token.identity;
    this.userId = token.userId;
    this.name = token.name;
    this.roomName = token.roomName;
    this.canPublish = token.canPublish;
    this.signInSessionId = token.sessionId;
    this.graceMs = options.graceMs;
    this.peer = new SfuPeer({
      config: options.peerConfig,
      canPublish: token.canPublish,
      announcedIp: options.announcedIp,
      logger: options.logger,
      senderReports: options.senderReports,
      onPublisherTrack: (track) => hooks.onPublisherTrack(this, track),
      onConnectionState: (state) => this.onConnectionState(state),
      onNegotiationFailed: (error) => {
        options.logger.warn({ err: error, identity: this.identity }, 'sfu: negotiation failed');
        hooks.onDead(this, 'negotiation failed');
      },
    });
  }

  get info(): VoiceParticipantInfo {
    return { identity: this.identity, userId: this.userId, name: this.name };
  }

  /** The answer to a join or resume: who this is, who else is in the room, how to reach us. */
  sendJoined(others: readonly SfuSession[], iceServers: RTCIceServer[], resumed: boolean): void {
    this.send({
      type: 'joined',
      version: VOICE_SIGNALLING_VERSION,
      sessionId: this.sessionId,
      roomName: this.roomName,
      self: this.info,
      participants: others.filter((other) => other !== this).map((other) => other.info),
      canPublish: this.canPublish,
      iceServers,
      resumed,
    });
  }

  send(message: ServerVoiceMessage): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  attachSocket(socket: WebSocket): void {
    clearTimeout(this.detachedTimer);
    this.detachedTimer = undefined;
    this.socket = socket;
    this.peer.attachSignal((message) => this.send(message));
  }

  /** The socket went away; keep the media running for a while so the client can resume. */
  detachSocket(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.peer.attachSignal(undefined);
    this.detachedTimer ??= setTimeout(
      () => this.hooks.onDead(this, 'signalling lost'),
      this.graceMs,
    );
  }

  setPublisherTrack(
    track: MediaStreamTrack,
    onRtp: Parameters<MediaStreamTrack['onReceiveRtp']['subscribe']>[0],
  ): void {
    this.stopPublisher?.();
    this.stopPublisher = track.onReceiveRtp.subscribe(onRtp).unSubscribe;
  }

  close(code: number, reason: string): void {
    clearTimeout(this.failedTimer);
    clearTimeout(this.detachedTimer);
    this.stopPublisher?.();
    this.peer.close();
    const socket = this.socket;
    this.socket = undefined;
    if (socket && socket.readyState <= 1) socket.close(code, reason.slice(0, 120));
  }

  private onConnectionState(state: string): void {
    if (state === 'connected') {
      clearTimeout(this.failedTimer);
      this.failedTimer = undefined;
    } else if (state === 'failed' || state === 'disconnected') {
      // The client restarts ICE or rejoins; if neither happens in time, free the room slot.
      this.failedTimer ??= setTimeout(() => this.hooks.onDead(this, `peer ${state}`), this.graceMs);
    } else if (state === 'closed') {
      this.hooks.onDead(this, 'peer closed');
    }
  }
}
