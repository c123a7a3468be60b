import {
  MediaStreamTrack,
  RTCPeerConnection,
  type RTCPeerConnectionConfig,
  type RTCRtpTransceiver,
} from 'werift';
import type { IceCandidateInit } from '../../../../protocol/ice.js';
import type { ServerVoiceMessage, TrackMapping } from '../../../../protocol/voice-signalling.js';
import { NegotiationQueue } from './negotiation-queue.js';
import { announceAddress, restoreOfferedCodecParameters } from './peer-config.js';
import { createForwarder } from './create-forwarder.js';
import type { ForwardedPacket, TalkerForwarder } from './rtp-forwarder.js';
import type { SenderReports } from './sender-reports.js';
import type { SendPath } from './sfu-counters.js';
import type { SfuLogger } from './sfu-logger.js';
import {
  disarmConsentAnswers,
  interceptDatagrams,
  quietSctpHeartbeats,
  preferAesCmSrtp,
  startIceChecksAfterRestart,
} from './werift-internals.js';

type OfferMessage = Extract<ServerVoiceMessage, { type: 'offer' }>;

/** One talker's audio as this peer's listener receives it: a send-only m-line fed with forwarded RTP. */
interface Forward {
  identity: string;
  userId: string;
  track: MediaStreamTrack;
  transceiver: RTCRtpTransceiver | undefined;
  forwarder: TalkerForwarder | undefined;
}

export interface SfuPeerOptions {
  config: RTCPeerConnectionConfig;
  canPublish: boolean;
  announcedIp: string | undefined;
  logger: SfuLogger;
  /** RTCP sender reports for the talkers this peer's listener receives. */
  senderReports: SenderReports;
  /** How long a sent offer may wait for its answer while the signalling socket is attached. */
  answerTimeoutMs?: number;
  onPublisherTrack: (track: MediaStreamTrack) => void;
  onConnectionState: (state: RTCPeerConnection['connectionState']) => void;
  onNegotiationFailed: (error: unknown) => void;
}

/**
 * The server side of one browser's connection. It is always the offerer: the first offer carries
 * the publisher's receive slot (or, for a member who may not talk, a placeholder data channel) so
 * ICE and DTLS come up before any talker's audio exists, and each change in the set of talkers
 * triggers another offer. Offers reconcile the wanted talkers with the transceivers, so queued
 * requests collapse into one.
 */
export class SfuPeer {
  readonly pc: RTCPeerConnection;
  private readonly queue: NegotiationQueue;
  private readonly forwards = new Map<string, Forward>();
  /** The last talker forwarded and its entry: a room has one talker at a time, nearly always. */
  private lastIdentity: string | undefined;
  private lastForward: Forward | undefined;
  private publishTransceiver: RTCRtpTransceiver | undefined;
  private firstNegotiationDone = false;
  private negotiationId = 0;
  private restartIceNext = false;
  private send: ((message: ServerVoiceMessage) => void) | undefined;
  private signalWaiters: (() => void)[] = [];
  private settleWaiters: (() => void)[] = [];
  private pendingAnswer:
    | {
        id: number;
        offer: OfferMessage;
        resolve: (sdp: string) => void;
        reject: (e: Error) => void;
        timer?: NodeJS.Timeout;
      }
    | undefined;
  private closed = false;
  private readonly answerTimeoutMs: number;

  constructor(private readonly options: SfuPeerOptions) {
    this.answerTimeoutMs = options.answerTimeoutMs ?? 15_000;
    this.pc = new RTCPeerConnection(options.config);
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        // Consent checks are answered before werift from now on (RTCP goes on to it, for NACKs).
        interceptDatagrams(this.pc);
        quietSctpHeartbeats(this.pc);
      }
      if (state !== 'new' && state !== 'connecting') this.wakeSettleWaiters();
      options.onConnectionState(state);
    });
    this.queue = new NegotiationQueue(
      () => this.negotiate(),
      (error) => options.onNegotiationFailed(error),
    );
  }

  /**
   * Starts the first negotiation. A member who may talk is offered their publish slot in it, so the
   * connection needs nothing else; only a member who may not talk gets a placeholder data channel,
   * which the first offer needs to bring ICE and DTLS up (its SCTP association costs each side a
   * heartbeat every 30 s for as long as the member stays, which is why it is not the default).
   */
  start(): void {
    if (this.options.canPublish) this.addPublishTransceiver();
    else this.pc.createDataChannel('chirp');
    preferAesCmSrtp(this.pc);
    this.queue.request();
  }

  /** Attaches (or, with undefined, detaches) the signalling socket; offers wait while detached. */
  attachSignal(send: ((message: ServerVoiceMessage) => void) | undefined): void {
    this.send = send;
    const pending = this.pendingAnswer;
    if (pending) {
      clearTimeout(pending.timer);
      if (send) {
        // The answer to this offer may have been lost with the old socket; offering again is harmless.
        send(pending.offer);
        pending.timer = this.answerTimer(pending.id);
      }
    }
    if (send) {
      const waiters = this.signalWaiters;
      this.signalWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  handleAnswer(negotiationId: number, sdp: string): void {
    const pending = this.pendingAnswer;
    if (!pending || pending.id !== negotiationId) {
      this.options.logger.debug({ negotiationId }, 'sfu: stale answer ignored');
      return;
    }
    clearTimeout(pending.timer);
    this.pendingAnswer = undefined;
    pending.resolve(sdp);
  }

  async addIceCandidate(candidate: IceCandidateInit): Promise<void> {
    if (this.closed || candidate.candidate === '') return;
    await this.pc.addIceCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? undefined,
      sdpMLineIndex: candidate.sdpMLineIndex ?? undefined,
      usernameFragment: candidate.usernameFragment ?? undefined,
    });
  }

  restartIce(): void {
    this.restartIceNext = true;
    this.wakeSettleWaiters();
    this.queue.request();
  }

  /** Starts sending a talker's audio to this peer (materialised at the next offer). */
  addForward(identity: string, userId: string): void {
    if (this.forwards.has(identity) || this.closed) return;
    this.forgetLastForward();
    this.forwards.set(identity, {
      identity,
      userId,
      track: new MediaStreamTrack({ kind: 'audio' }),
      transceiver: undefined,
      forwarder: undefined,
    });
    if (this.firstNegotiationDone) this.queue.request();
  }

  removeForward(identity: string): void {
    const forward = this.forwards.get(identity);
    if (!forward) return;
    this.forgetLastForward();
    this.forwards.delete(identity);
    forward.forwarder?.close();
    forward.track.stop();
    if (forward.transceiver && !this.closed) {
      this.pc.removeTrack(forward.transceiver.sender);
      this.queue.request();
    }
  }

  /**
   * Sends one of a talker's packets to this listener (the packet is only read, never changed);
   * says by which path, or undefined when it was not sent.
   */
  forward(identity: string, packet: ForwardedPacket): SendPath | undefined {
    if (identity !== this.lastIdentity) {
      this.lastIdentity = identity;
      this.lastForward = this.forwards.get(identity);
    }
    return this.lastForward?.forwarder?.send(packet);
  }

  private forgetLastForward(): void {
    this.lastIdentity = undefined;
    this.lastForward = undefined;
  }

  hasForward(identity: string): boolean {
    return this.forwards.has(identity);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.close();
    this.wakeSettleWaiters();
    clearTimeout(this.pendingAnswer?.timer);
    this.pendingAnswer?.reject(new Error('peer closed'));
    this.pendingAnswer = undefined;
    for (const forward of this.forwards.values()) {
      forward.forwarder?.close();
      forward.track.stop();
    }
    this.forwards.clear();
    this.forgetLastForward();
    this.pc
      .close()
      .catch((error: unknown) => this.options.logger.debug({ err: error }, 'sfu: close failed'));
  }

  private async negotiate(): Promise<void> {
    await this.waitForSignal();
    // werift starts ICE and DTLS again on every applied answer; an answer applied while the first
    // handshake is still running fails the connection ("state must be new"), which a join storm
    // on a busy server made common. So later offers wait until the connection has settled — the
    // first offer exists precisely to bring ICE and DTLS up before audio is negotiated.
    if (this.firstNegotiationDone) await this.waitUntilSettled();
    if (this.closed) return;
    if (this.firstNegotiationDone) this.reconcileTransceivers();
    const iceRestart = this.restartIceNext;
    this.restartIceNext = false;
    // The receive thread must not answer checks with the credentials the restart replaces.
    if (iceRestart) disarmConsentAnswers(this.pc);
    restoreOfferedCodecParameters(this.pc.getTransceivers(), this.options.config);
    const offer = await this.pc.createOffer({ iceRestart });
    preferAesCmSrtp(this.pc);
    await this.pc.setLocalDescription(offer);
    if (this.closed) return;
    const sdp = announceAddress(
      this.pc.localDescription?.sdp ?? offer.sdp,
      this.options.announcedIp,
    );
    const id = ++this.negotiationId;
    const message: OfferMessage = {
      type: 'offer',
      negotiationId: id,
      sdp,
      publishMid: this.publishTransceiver?.mid ?? null,
      tracks: this.trackMappings(),
    };
    const answer = await this.offerAndWait(id, message);
    if (this.closed) return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    if (iceRestart)
      startIceChecksAfterRestart(this.pc, (error) =>
        this.options.logger.info({ err: error }, 'sfu: ICE restart failed'),
      );
    if (!this.firstNegotiationDone) {
      this.firstNegotiationDone = true;
      if (this.forwards.size > 0) this.queue.request();
    }
  }

  private reconcileTransceivers(): void {
    if (this.options.canPublish && !this.publishTransceiver) this.addPublishTransceiver();
    for (const forward of this.forwards.values()) {
      if (!forward.transceiver) {
        forward.transceiver = this.pc.addTransceiver(forward.track, { direction: 'sendonly' });
        forward.forwarder = createForwarder(
          forward.transceiver,
          forward.track,
          this.options.senderReports,
        );
      }
    }
  }

  private addPublishTransceiver(): void {
    this.publishTransceiver = this.pc.addTransceiver('audio', { direction: 'recvonly' });
    this.publishTransceiver.onTrack.subscribe((track) => this.options.onPublisherTrack(track));
  }

  private trackMappings(): TrackMapping[] {
    const mappings: TrackMapping[] = [];
    for (const forward of this.forwards.values()) {
      const mid = forward.transceiver?.mid;
      if (mid) mappings.push({ mid, identity: forward.identity, userId: forward.userId });
    }
    return mappings;
  }

  private offerAndWait(id: number, offer: OfferMessage): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.pendingAnswer = { id, offer, resolve, reject };
      if (this.send) {
        this.send(offer);
        this.pendingAnswer.timer = this.answerTimer(id);
      }
    });
  }

  private answerTimer(id: number): NodeJS.Timeout {
    return setTimeout(() => {
      const pending = this.pendingAnswer;
      if (pending?.id !== id) return;
      this.pendingAnswer = undefined;
      pending.reject(new Error(`no answer to offer ${id}`));
    }, this.answerTimeoutMs);
  }

  /** Resolves once the connection is up (or failed, or closed), or an ICE restart is asked for. */
  private waitUntilSettled(): Promise<void> {
    const state = this.pc.connectionState;
    if (this.closed || this.restartIceNext || (state !== 'new' && state !== 'connecting'))
      return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  private wakeSettleWaiters(): void {
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const wake of waiters) wake();
  }

  private waitForSignal(): Promise<void> {
    if (this.send || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.signalWaiters.push(resolve));
  }
}
