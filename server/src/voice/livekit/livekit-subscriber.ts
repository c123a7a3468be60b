import {
  LeaveRequest,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  TrickleRequest,
  ParticipantInfo_State,
  TrackType,
  type ParticipantInfo,
} from '@livekit/protocol';
import {
  RTCPeerConnection,
  type MediaStreamTrack,
  type RTCIceCandidate,
  type RtpPacket,
} from 'werift';
import WebSocket from 'ws';
import { participantPeerConfig } from '../sfu/peer-config.js';

const JOIN_TIMEOUT_MS = 15_000;

/**
 * A server-side LiveKit participant that only listens: LiveKit's signalling (protobuf
 * `SignalRequest`/`SignalResponse` over its `/rtc` WebSocket) and one werift peer connection, the
 * subscriber one, which LiveKit offers. It hands on every RTP packet of every audio track as it
 * arrives (Opus, untouched) with the identity of the participant who published it.
 */
export class LiveKitSubscriber {
  private readonly ws: WebSocket;
  private readonly pc = new RTCPeerConnection(participantPeerConfig());
  /** Participant sid → identity, from the join response and participant updates. */
  private readonly identities = new Map<string, string>();
  private offerChain: Promise<void> = Promise.resolve();
  private pingTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** Audio track sid → whether it is muted, as LiveKit last said. */
  private readonly audioMuted = new Map<string, boolean>();

  private constructor(
    url: string,
    token: string,
    private readonly onRtp: (identity: string, rtp: RtpPacket) => void,
    private readonly onError: (error: unknown) => void,
    private readonly onUnmuted: (identity: string) => void,
  ) {
    const params = new URLSearchParams({
      access_token: token,
      auto_subscribe: '1',
      sdk: 'js',
      version: '2.0.0',
      protocol: '16',
    });
    this.ws = new WebSocket(`${url.replace(/\/$/, '')}/rtc?${params.toString()}`);
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('error', (error) => this.onError(error));
    this.pc.onIceCandidate.subscribe((candidate) => this.trickle(candidate));
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'disconnected')
        this.onError(new Error(`LiveKit subscriber connection ${state}`));
    });
    // LiveKit recycles a subscriber m-line for the next track (a walkie-talkie talker publishes
    // anew at every press): the transceiver stays, a track with a new SSRC is added to it, and the
    // stream id ("<participant sid>|<track sid>") is the one of its latest offer.
    const watched = new WeakSet<object>();
    this.pc.onRemoteTransceiverAdded.subscribe((transceiver) => {
      if (transceiver.kind !== 'audio') return;
      const watch = (track: MediaStreamTrack) => {
        if (watched.has(track)) return;
        watched.add(track);
        track.onReceiveRtp.subscribe((rtp) => {
          const participantSid = (transceiver.receiver.remoteStreamId ?? '').split('|')[0] ?? '';
          const identity = this.identities.get(participantSid);
          if (identity) this.onRtp(identity, rtp);
        });
      };
      transceiver.receiver.tracks.forEach(watch);
      transceiver.onTrack.subscribe((track) => watch(track));
    });
  }

  /** Joins the room the token is for; resolves once LiveKit accepted the participant. */
  static async join(
    url: string,
    token: string,
    onRtp: (identity: string, rtp: RtpPacket) => void,
    onError: (error: unknown) => void,
    /** Someone's audio track was published unmuted, or unmuted. */
    onUnmuted: (identity: string) => void = () => undefined,
  ): Promise<LiveKitSubscriber> {
    const subscriber = new LiveKitSubscriber(url, token, onRtp, onError, onUnmuted);
    await subscriber.joined();
    return subscriber;
  }

  /** Whether LiveKit closed the connection (the room was deleted, or the server went away). */
  get isClosed(): boolean {
    return this.closed || this.ws.readyState === WebSocket.CLOSED;
  }

  /** Identities of everyone else in the room now. */
  participants(): string[] {
    return [...this.identities.values()];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws.readyState === WebSocket.OPEN) {
      this.send({ case: 'leave', value: new LeaveRequest({}) });
      this.ws.close(1000);
    } else {
      this.ws.terminate();
    }
    await this.pc.close().catch(() => undefined);
  }

  private joined(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error('LiveKit did not answer the join'));
        void this.close();
      }, JOIN_TIMEOUT_MS);
      this.ws.on('message', (data: Buffer) => {
        let response: SignalResponse;
        try {
          response = SignalResponse.fromBinary(data);
        } catch (error) {
          this.onError(error);
          return;
        }
        if (response.message.case === 'join') {
          clearTimeout(timer);
          const join = response.message.value;
          this.remember(join.otherParticipants);
          const seconds = join.pingInterval || 5;
          this.pingTimer = setInterval(
            () => this.send({ case: 'ping', value: BigInt(Date.now()) }),
            seconds * 1000,
          );
          this.pingTimer.unref();
          resolve();
        }
        this.onSignal(response);
      });
      this.ws.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      this.ws.once('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`LiveKit closed the socket (${code})`));
        clearInterval(this.pingTimer);
      });
    });
  }

  private remember(participants: ParticipantInfo[]): void {
    for (const participant of participants) {
      if (participant.state === ParticipantInfo_State.DISCONNECTED) {
        this.identities.delete(participant.sid);
        for (const track of participant.tracks) this.audioMuted.delete(track.sid);
        continue;
      }
      this.identities.set(participant.sid, participant.identity);
      for (const track of participant.tracks) {
        if (track.type !== TrackType.AUDIO) continue;
        const before = this.audioMuted.get(track.sid);
        this.audioMuted.set(track.sid, track.muted);
        if (!track.muted && before !== false) this.onUnmuted(participant.identity);
      }
    }
  }

  private onSignal(response: SignalResponse): void {
    const message = response.message;
    if (message.case === 'update') this.remember(message.value.participants);
    else if (message.case === 'offer') {
      const offer = message.value;
      this.offerChain = this.offerChain
        .then(() => this.answer(offer))
        .catch((error: unknown) => this.onError(error));
    } else if (message.case === 'trickle' && message.value.target === SignalTarget.SUBSCRIBER) {
      const init = JSON.parse(message.value.candidateInit) as {
        candidate: string;
        sdpMid?: string;
        sdpMLineIndex?: number;
      };
      if (init.candidate) this.pc.addIceCandidate(init).catch(() => undefined);
    }
  }

  private async answer(offer: SessionDescription): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    this.send({
      case: 'answer',
      value: new SessionDescription({
        type: 'answer',
        sdp: this.pc.localDescription?.sdp ?? '',
        id: offer.id,
      }),
    });
  }

  private trickle(candidate: RTCIceCandidate | undefined): void {
    if (!candidate?.candidate) return;
    this.send({
      case: 'trickle',
      value: new TrickleRequest({
        candidateInit: JSON.stringify(candidate.toJSON()),
        target: SignalTarget.SUBSCRIBER,
      }),
    });
  }

  private send(message: SignalRequest['message']): void {
    if (this.ws.readyState === WebSocket.OPEN)
      this.ws.send(new SignalRequest({ message }).toBinary());
  }
}
