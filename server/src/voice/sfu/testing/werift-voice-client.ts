import {
  MediaStreamTrack,
  RTCPeerConnection,
  type RtpPacket,
  type RTCRtpTransceiver,
} from 'werift';
import WebSocket from 'ws';
import {
  VOICE_SIGNALLING_VERSION,
  parseVoiceMessage,
  serverVoiceMessageSchema,
  type ServerVoiceMessage,
} from '../../../../../protocol/voice-signalling.js';
import { participantPeerConfig } from '../peer-config.js';

/**
 * A Node-side participant for integration tests and benchmarks: speaks the `/rtc` protocol like
 * the browser transport does, publishes RTP it is handed, and counts what it receives per talker.
 */
export class WeriftVoiceClient {
  readonly pc: RTCPeerConnection;
  readonly ws: WebSocket;
  readonly messages: ServerVoiceMessage[] = [];
  readonly received = new Map<string, number>();
  readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  onRtp: ((identity: string, rtp: RtpPacket) => void) | undefined;
  closeCode: number | undefined;
  /** ICE restarts this client asked for after its connection failed (see `recoverIce`). */
  iceRestarts = 0;
  private readonly identityByMid = new Map<string, string>();
  private publishing = false;
  private queue: Promise<void> = Promise.resolve();

  private constructor(url: string, red: boolean) {
    this.pc = new RTCPeerConnection(participantPeerConfig({ red }));
    this.ws = new WebSocket(url);
    const subscribed = new WeakSet<object>();
    this.pc.ontrack = (event) => {
      // werift reports a receiving track again at every renegotiation; count its packets once.
      if (subscribed.has(event.track)) return;
      subscribed.add(event.track);
      event.track.onReceiveRtp.subscribe((rtp) => {
        const identity =
          this.identityByMid.get(event.transceiver.mid ?? '') ?? `mid:${event.transceiver.mid}`;
        this.received.set(identity, (this.received.get(identity) ?? 0) + 1);
        this.onRtp?.(identity, rtp);
      });
    };
    this.ws.on('message', (data: Buffer) => {
      const message = parseVoiceMessage(serverVoiceMessageSchema, data.toString('utf8'));
      if (!message) return;
      this.messages.push(message);
      // Offers are handled strictly in order, like a browser's operations chain.
      if (message.type === 'offer')
        this.queue = this.queue.then(() => this.answer(message)).catch(() => undefined);
    });
    this.ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  /**
   * Recovers a failed connection the way the browser transport does: ask the server for an ICE
   * restart (werift's own checks give up after about 3 s, which a loaded machine can exceed).
   */
  recoverIce(maxRestarts = 5): void {
    this.pc.connectionStateChange.subscribe((state) => {
      if (state !== 'failed' || this.iceRestarts >= maxRestarts) return;
      if (this.ws.readyState !== WebSocket.OPEN) return;
      this.iceRestarts++;
      this.ws.send(JSON.stringify({ type: 'restart_ice' }));
    });
  }

  /**
   * Opens the socket and sends `join`; resolves once the server answered `joined` or closed. With
   * `red`, the client takes Opus RED like a browser: it sends RED and werift unpacks what arrives.
   */
  static async join(url: string, token: string, { red = false } = {}): Promise<WeriftVoiceClient> {
    const client = new WeriftVoiceClient(url, red);
    await new Promise<void>((resolve, reject) => {
      client.ws.once('open', () => resolve());
      client.ws.once('error', reject);
    });
    client.ws.send(JSON.stringify({ type: 'join', version: VOICE_SIGNALLING_VERSION, token }));
    await client.waitFor(
      () => client.messages.some((m) => m.type === 'joined') || client.closeCode !== undefined,
      10_000,
    );
    return client;
  }

  get joined(): Extract<ServerVoiceMessage, { type: 'joined' }> | undefined {
    return this.messages.find(
      (m): m is Extract<ServerVoiceMessage, { type: 'joined' }> => m.type === 'joined',
    );
  }

  /**
   * The microphone is on a publish slot *and* the connection is up, so what is sent now is heard.
   * The publish slot comes in the first offer, before ICE and DTLS have connected; packets sent
   * before that are dropped by werift (no SRTP keys yet), as a browser would not send them either.
   */
  get isPublishing(): boolean {
    return this.publishing && this.pc.connectionState === 'connected';
  }

  /** Sends one packet as the microphone (the SFU must have negotiated our publish slot). */
  sendRtp(rtp: RtpPacket | Buffer): void {
    this.microphone.writeRtp(rtp);
  }

  async waitFor(condition: () => boolean, timeoutMs: number, what = 'condition'): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: 'leave' }));
      this.ws.close(1000);
    }
    await this.pc.close();
  }

  private async answer(offer: Extract<ServerVoiceMessage, { type: 'offer' }>): Promise<void> {
    for (const mapping of offer.tracks) this.identityByMid.set(mapping.mid, mapping.identity);
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    if (offer.publishMid && !this.publishing) {
      const slot = this.pc
        .getTransceivers()
        .find((t: RTCRtpTransceiver) => t.mid === offer.publishMid);
      if (slot) {
        slot.setDirection('sendonly');
        await slot.sender.replaceTrack(this.microphone);
        this.publishing = true;
      }
    }
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    const sdp = this.pc.localDescription?.sdp ?? answer.sdp;
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: 'answer', negotiationId: offer.negotiationId, sdp }));
    }
    // Same werift ICE-restart gap as on the server (`startIceChecksAfterRestart`): after a restart
    // offer werift resets the agent but runs no checks while DTLS is up — or after the connection
    // failed, which is when clients restart. The server is ICE-lite, so only we can run them.
    const state = this.pc.connectionState;
    for (const transport of this.pc.iceTransports) {
      if (
        transport.state !== 'closed' &&
        !transport.connection.nominated &&
        (state === 'connected' || state === 'failed' || state === 'disconnected')
      ) {
        transport.start().catch(() => undefined);
      }
    }
  }
}
