import {
  AddTrackRequest,
  LeaveRequest,
  MuteTrackRequest,
  ParticipantInfo_State,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  TrackSource,
  TrackType,
  TrickleRequest,
  UpdateSubscription,
  type ParticipantInfo,
  type ParticipantPermission,
} from '@livekit/protocol';
import { MediaStreamTrack, RTCPeerConnection, type RTCIceCandidate, type RtpPacket } from 'werift';
import WebSocket from 'ws';
import { participantPeerConfig } from '../../sfu/peer-config.js';

/**
 * A Node-side LiveKit participant for integration tests: LiveKit's own signalling (protobuf over
 * `/rtc`) with two werift peer connections, like a browser's livekit-client — it publishes a
 * microphone track when asked, sends the RTP it is handed, counts every packet it receives per
 * talker, and keeps what LiveKit tells it (refreshed tokens, its permissions, a leave).
 */
export class LivekitTestParticipant {
  readonly ws: WebSocket;
  readonly subscriber = new RTCPeerConnection(participantPeerConfig());
  readonly publisher = new RTCPeerConnection(participantPeerConfig());
  readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  /** Packets received per publishing identity. */
  readonly received = new Map<string, number>();
  /** The first payload received per publishing identity (tests number their packets). */
  readonly firstPayload = new Map<string, Buffer>();
  /** The newest token LiveKit handed this participant (it refreshes them while connected). */
  refreshedToken: string | undefined;
  /** Our own permissions, as LiveKit last told us. */
  permission: ParticipantPermission | undefined;
  identity = '';
  /** LiveKit's id of this connection (a rejoin with the same identity gets a new one). */
  sid = '';
  /** LiveKit closed the connection or asked us to leave. */
  closed = false;
  error: unknown;
  private readonly identities = new Map<string, string>();
  private publishedSid: string | undefined;
  private subscriberChain: Promise<void> = Promise.resolve();
  private pingTimer: NodeJS.Timeout | undefined;

  private constructor(url: string, token: string) {
    const params = new URLSearchParams({
      access_token: token,
      auto_subscribe: '1',
      sdk: 'js',
      version: '2.0.0',
      protocol: '16',
    });
    this.ws = new WebSocket(`${url.replace(/\/$/, '')}/rtc?${params.toString()}`);
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('error', (error) => (this.error = error));
    this.ws.on('close', () => {
      this.closed = true;
      clearInterval(this.pingTimer);
    });
    this.ws.on('message', (data: Buffer) => this.onSignal(SignalResponse.fromBinary(data)));
    this.subscriber.onIceCandidate.subscribe((c) => this.trickle(c, SignalTarget.SUBSCRIBER));
    this.publisher.onIceCandidate.subscribe((c) => this.trickle(c, SignalTarget.PUBLISHER));
    const watched = new WeakSet<object>();
    this.subscriber.onRemoteTransceiverAdded.subscribe((transceiver) => {
      const watch = (track: MediaStreamTrack) => {
        if (watched.has(track)) return;
        watched.add(track);
        track.onReceiveRtp.subscribe((rtp) => {
          const sid = (transceiver.receiver.remoteStreamId ?? '').split('|')[0] ?? '';
          const identity = this.identities.get(sid) ?? `sid:${sid}`;
          this.received.set(identity, (this.received.get(identity) ?? 0) + 1);
          if (!this.firstPayload.has(identity))
            this.firstPayload.set(identity, Buffer.from(rtp.payload));
        });
      };
      transceiver.receiver.tracks.forEach(watch);
      transceiver.onTrack.subscribe(watch);
    });
  }

  /** Connects with the token; resolves once LiveKit answered the join, or closed the socket. */
  static async join(url: string, token: string): Promise<LivekitTestParticipant> {
    const participant = new LivekitTestParticipant(url, token);
    await participant.waitFor(
      () => participant.identity !== '' || participant.closed,
      15_000,
      'LiveKit join',
    );
    return participant;
  }

  get joined(): boolean {
    return this.identity !== '' && !this.closed;
  }

  heard(identity: string): number {
    return this.received.get(identity) ?? 0;
  }

  /** Publishes the microphone: resolves once LiveKit accepted the track and the offer. */
  async publishMicrophone(options: { muted?: boolean } = {}): Promise<void> {
    this.send({
      case: 'addTrack',
      value: new AddTrackRequest({
        cid: this.microphone.id,
        name: 'microphone',
        type: TrackType.AUDIO,
        source: TrackSource.MICROPHONE,
        disableRed: true,
        muted: options.muted ?? false,
      }),
    });
    await this.waitFor(
      () => this.publishedSid !== undefined || this.closed,
      10_000,
      'track published',
    );
    this.publisher.addTransceiver(this.microphone, { direction: 'sendonly' });
    const offer = await this.publisher.createOffer();
    await this.publisher.setLocalDescription(offer);
    this.send({
      case: 'offer',
      value: new SessionDescription({
        type: 'offer',
        sdp: this.publisher.localDescription?.sdp ?? offer.sdp,
      }),
    });
    await this.waitFor(
      () => this.publisher.connectionState === 'connected' || this.closed,
      15_000,
      'publisher connected',
    );
  }

  /** Mutes or unmutes the published microphone, as the client itself may (MuteTrackRequest). */
  setMuted(muted: boolean): void {
    const sid = this.publishedSid;
    if (sid === undefined) throw new Error('nothing published to mute');
    this.send({ case: 'mute', value: new MuteTrackRequest({ sid, muted }) });
  }

  /** The sid LiveKit gave our microphone track, once published. */
  get publishedTrackSid(): string | undefined {
    return this.publishedSid;
  }

  /** What a modified client may do: ask LiveKit itself to subscribe to (or drop) these tracks. */
  setSubscribed(trackSids: string[], subscribe: boolean): void {
    this.send({ case: 'subscription', value: new UpdateSubscription({ trackSids, subscribe }) });
  }

  /** Sends `count` packets, 20 ms apart, as the microphone. */
  async talk(packet: () => RtpPacket, count: number): Promise<void> {
    for (let i = 0; i < count && !this.closed; i++) {
      this.microphone.writeRtp(packet());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    if (this.ws.readyState === WebSocket.OPEN) {
      this.send({ case: 'leave', value: new LeaveRequest({}) });
      this.ws.close(1000);
    } else this.ws.terminate();
    this.closed = true;
    await this.subscriber.close().catch(() => undefined);
    await this.publisher.close().catch(() => undefined);
  }

  private remember(participants: ParticipantInfo[]): void {
    for (const p of participants) {
      if (p.identity === this.identity) {
        this.permission = p.permission;
        continue;
      }
      if (p.state === ParticipantInfo_State.DISCONNECTED) this.identities.delete(p.sid);
      else this.identities.set(p.sid, p.identity);
    }
  }

  private onSignal(response: SignalResponse): void {
    const message = response.message;
    switch (message.case) {
      case 'join': {
        this.identity = message.value.participant?.identity ?? '';
        this.sid = message.value.participant?.sid ?? '';
        this.permission = message.value.participant?.permission;
        this.remember(message.value.otherParticipants);
        this.pingTimer = setInterval(
          () => this.send({ case: 'ping', value: BigInt(Date.now()) }),
          (message.value.pingInterval || 5) * 1000,
        );
        this.pingTimer.unref();
        return;
      }
      case 'update':
        return this.remember(message.value.participants);
      case 'refreshToken':
        this.refreshedToken = message.value;
        return;
      case 'trackPublished':
        this.publishedSid = message.value.track?.sid;
        return;
      case 'leave':
        this.closed = true;
        return;
      case 'answer': {
        const sdp = message.value.sdp;
        void this.publisher
          .setRemoteDescription({ type: 'answer', sdp })
          .catch((e: unknown) => (this.error = e));
        return;
      }
      case 'offer': {
        const offer = message.value;
        this.subscriberChain = this.subscriberChain
          .then(async () => {
            await this.subscriber.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
            await this.subscriber.setLocalDescription(await this.subscriber.createAnswer());
            this.send({
              case: 'answer',
              value: new SessionDescription({
                type: 'answer',
                sdp: this.subscriber.localDescription?.sdp ?? '',
                id: offer.id,
              }),
            });
          })
          .catch((error: unknown) => {
            this.error = error;
          });
        return;
      }
      case 'trickle': {
        const init = JSON.parse(message.value.candidateInit) as { candidate: string };
        if (!init.candidate) return;
        const pc =
          message.value.target === SignalTarget.PUBLISHER ? this.publisher : this.subscriber;
        pc.addIceCandidate(init).catch(() => undefined);
        return;
      }
      default:
        return;
    }
  }

  private trickle(candidate: RTCIceCandidate | undefined, target: SignalTarget): void {
    if (!candidate?.candidate) return;
    this.send({
      case: 'trickle',
      value: new TrickleRequest({ candidateInit: JSON.stringify(candidate.toJSON()), target }),
    });
  }

  private send(message: SignalRequest['message']): void {
    if (this.ws.readyState === WebSocket.OPEN)
      this.ws.send(new SignalRequest({ message }).toBinary());
  }
}
