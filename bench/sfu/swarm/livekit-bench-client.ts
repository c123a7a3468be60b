import {
  AddTrackRequest,
  LeaveRequest,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  TrackSource,
  TrackType,
  TrickleRequest,
} from '@livekit/protocol';
import { MediaStreamTrack, RTCPeerConnection, type RTCIceCandidate, type RtpPacket } from 'werift';
import WebSocket from 'ws';
import { participantPeerConfig } from '../../../server/src/voice/sfu/peer-config.js';
import type { SwarmClient } from './swarm-client.js';
import { waitFor } from './wait-for.js';

/**
 * The smallest LiveKit participant that publishes or hears one audio track: LiveKit's signalling
 * (protobuf `SignalRequest`/`SignalResponse` over a WebSocket, the `/rtc` v0 path) with werift
 * peer connections. Like LiveKit's own SDKs it keeps two: the subscriber connection, which the
 * server offers, and the publisher connection, which the client offers after `addTrack`.
 */
export class LiveKitBenchClient implements SwarmClient {
  private readonly ws: WebSocket;
  private readonly subscriber = new RTCPeerConnection(participantPeerConfig());
  private publisher: RTCPeerConnection | undefined;
  private readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  private readonly responses: ((response: SignalResponse) => boolean)[] = [];
  private offerChain: Promise<void> = Promise.resolve();
  private pingTimer: NodeJS.Timeout | undefined;
  private publishing = false;

  private constructor(url: string, token: string, onRtp: ((rtp: RtpPacket) => void) | undefined) {
    const params = new URLSearchParams({
      access_token: token,
      auto_subscribe: '1',
      sdk: 'js',
      version: '2.0.0',
      protocol: '16',
    });
    this.ws = new WebSocket(`${url}/rtc?${params.toString()}`);
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('message', (data: Buffer) => this.onSignal(SignalResponse.fromBinary(data)));
    this.subscriber.onIceCandidate.subscribe((c) => this.trickle(c, SignalTarget.SUBSCRIBER));
    const seen = new WeakSet<object>();
    this.subscriber.ontrack = (event) => {
      if (!onRtp || seen.has(event.track)) return;
      seen.add(event.track);
      event.track.onReceiveRtp.subscribe((rtp) => onRtp(rtp));
    };
  }

  static async join(
    url: string,
    token: string,
    role: 'publisher' | 'subscriber',
    onRtp?: (rtp: RtpPacket) => void,
  ): Promise<LiveKitBenchClient> {
    const client = new LiveKitBenchClient(url, token, onRtp);
    const joined = await client.expect((r) => r.message.case === 'join', 'join response');
    if (joined.message.case === 'join') {
      const seconds = joined.message.value.pingInterval || 5;
      client.pingTimer = setInterval(
        () => client.send({ case: 'ping', value: BigInt(Date.now()) }),
        seconds * 1000,
      );
      client.pingTimer.unref();
    }
    if (role === 'publisher') await client.publish();
    return client;
  }

  sendRtp(packet: RtpPacket): void {
    if (!this.publishing) throw new Error('not publishing');
    this.microphone.writeRtp(packet);
  }

  get connectionState(): string {
    return this.subscriber.connectionState;
  }

  describe(): string {
    return `${this.subscriber.connectionState}/${this.subscriber.iceConnectionState}, ws ${this.ws.readyState}`;
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    if (this.ws.readyState === WebSocket.OPEN) {
      this.send({ case: 'leave', value: new LeaveRequest({}) });
      this.ws.close(1000);
    }
    await Promise.allSettled([this.subscriber.close(), this.publisher?.close()]);
  }

  /** addTrack, then offer the publisher connection with that track; LiveKit answers. */
  private async publish(): Promise<void> {
    const pc = new RTCPeerConnection(participantPeerConfig());
    this.publisher = pc;
    pc.onIceCandidate.subscribe((c) => this.trickle(c, SignalTarget.PUBLISHER));
    const transceiver = pc.addTransceiver(this.microphone, { direction: 'sendonly' });
    // LiveKit pairs the published track with the offer's m-line by the track id (msid), the cid.
    const cid = transceiver.sender.trackId;
    this.send({
      case: 'addTrack',
      value: new AddTrackRequest({
        cid,
        name: 'microphone',
        type: TrackType.AUDIO,
        source: TrackSource.MICROPHONE,
      }),
    });
    await this.expect((r) => r.message.case === 'trackPublished', 'trackPublished');
    const answered = this.expect((r) => r.message.case === 'answer', 'publisher answer');
    await pc.setLocalDescription(await pc.createOffer());
    this.send({
      case: 'offer',
      value: new SessionDescription({ type: 'offer', sdp: pc.localDescription?.sdp ?? '' }),
    });
    const answer = await answered;
    if (answer.message.case !== 'answer') throw new Error('unexpected');
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.message.value.sdp });
    await waitFor(() => pc.connectionState === 'connected', 20_000, 'publisher connection');
    this.publishing = true;
  }

  private onSignal(response: SignalResponse): void {
    const waiting = this.responses.findIndex((matches) => matches(response));
    if (waiting >= 0) this.responses.splice(waiting, 1);
    const message = response.message;
    if (message.case === 'offer') {
      const offer = message.value;
      this.offerChain = this.offerChain
        .then(() => this.answerSubscriber(offer))
        .catch(() => undefined);
    } else if (message.case === 'trickle') {
      const { candidateInit, target } = message.value;
      const pc = target === SignalTarget.SUBSCRIBER ? this.subscriber : this.publisher;
      const init = JSON.parse(candidateInit) as {
        candidate: string;
        sdpMid?: string;
        sdpMLineIndex?: number;
      };
      if (init.candidate) pc?.addIceCandidate(init).catch(() => undefined);
    }
  }

  private async answerSubscriber(offer: SessionDescription): Promise<void> {
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

  private expect(matches: (r: SignalResponse) => boolean, what: string): Promise<SignalResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`LiveKit: no ${what}`)), 20_000);
      this.responses.push((response) => {
        if (!matches(response)) return false;
        clearTimeout(timer);
        resolve(response);
        return true;
      });
      this.ws.once('close', (code) => reject(new Error(`LiveKit closed the socket (${code})`)));
    });
  }
}
