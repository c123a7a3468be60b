import { randomUUID } from 'node:crypto';
import { MediaStreamTrack, RTCPeerConnection, type RtpPacket } from 'werift';
import WebSocket from 'ws';
import { participantPeerConfig } from '../../../server/src/voice/sfu/peer-config.js';
import type { SwarmClient } from './swarm-client.js';
import { waitFor } from './wait-for.js';

interface JanusMessage {
  janus: string;
  transaction?: string;
  sender?: number;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { data: Record<string, unknown> };
  jsep?: { type: 'offer' | 'answer'; sdp: string };
}

/**
 * A Janus VideoRoom participant over Janus's JSON API on a WebSocket (`janus-protocol`): one session
 * and one plugin handle. A publisher creates its own room and joins it with an audio-only offer; a
 * subscriber joins the room naming the publisher's feed, answers Janus's offer and starts. The SDPs
 * carry werift's candidates, so neither side trickles.
 */
export class JanusBenchClient implements SwarmClient {
  feed: number | undefined;
  private readonly ws: WebSocket;
  private readonly pc = new RTCPeerConnection(participantPeerConfig());
  private readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  private readonly pending = new Map<string, (message: JanusMessage) => void>();
  private session = 0;
  private handle = 0;
  private keepalive: NodeJS.Timeout | undefined;
  private publishing = false;

  private constructor(url: string, onRtp: ((rtp: RtpPacket) => void) | undefined) {
    this.ws = new WebSocket(url, 'janus-protocol');
    this.ws.on('message', (data: Buffer) =>
      this.onMessage(JSON.parse(data.toString('utf8')) as JanusMessage),
    );
    const seen = new WeakSet<object>();
    this.pc.ontrack = (event) => {
      if (!onRtp || seen.has(event.track)) return;
      seen.add(event.track);
      event.track.onReceiveRtp.subscribe((rtp) => onRtp(rtp));
    };
  }

  static async join(
    url: string,
    role: 'publisher' | 'subscriber',
    room: number,
    feed: number | undefined,
    onRtp?: (rtp: RtpPacket) => void,
  ): Promise<JanusBenchClient> {
    const client = new JanusBenchClient(url, onRtp);
    await new Promise<void>((resolve, reject) => {
      client.ws.once('open', () => resolve());
      client.ws.once('error', reject);
    });
    client.session = (await client.request({ janus: 'create' })).data?.id ?? 0;
    client.keepalive = setInterval(
      () => client.fire({ janus: 'keepalive', session_id: client.session }),
      20_000,
    );
    client.keepalive.unref();
    client.handle =
      (
        await client.request({
          janus: 'attach',
          session_id: client.session,
          plugin: 'janus.plugin.videoroom',
        })
      ).data?.id ?? 0;
    if (role === 'publisher') await client.publish(room);
    else await client.subscribe(room, feed ?? 0);
    return client;
  }

  sendRtp(packet: RtpPacket): void {
    if (!this.publishing) throw new Error('not publishing');
    this.microphone.writeRtp(packet);
  }

  get connectionState(): string {
    return this.pc.connectionState;
  }

  describe(): string {
    return `${this.pc.connectionState}/${this.pc.iceConnectionState}, ws ${this.ws.readyState}`;
  }

  async close(): Promise<void> {
    clearInterval(this.keepalive);
    if (this.ws.readyState === WebSocket.OPEN) {
      this.fire({ janus: 'destroy', session_id: this.session });
      this.ws.close(1000);
    }
    await this.pc.close();
  }

  private async publish(room: number): Promise<void> {
    await this.message({
      request: 'create',
      room,
      publishers: 1,
      audiocodec: 'opus',
      videocodec: 'vp8',
      notify_joining: false,
    });
    this.pc.addTransceiver(this.microphone, { direction: 'sendonly' });
    await this.pc.setLocalDescription(await this.pc.createOffer());
    // The reply to joinandconfigure is the "joined" event carrying our feed id and the answer.
    const joined = await this.message(
      {
        request: 'joinandconfigure',
        ptype: 'publisher',
        room,
        display: 'talker',
        audio: true,
        video: false,
      },
      { type: 'offer', sdp: this.pc.localDescription?.sdp ?? '', trickle: false },
    );
    this.feed = joined.plugindata?.data.id as number;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: joined.jsep?.sdp ?? '' });
    await waitFor(
      () => this.pc.connectionState === 'connected',
      20_000,
      'Janus publisher connection',
    );
    this.publishing = true;
  }

  private async subscribe(room: number, feed: number): Promise<void> {
    const attached = await this.message({
      request: 'join',
      ptype: 'subscriber',
      room,
      streams: [{ feed }],
    });
    await this.pc.setRemoteDescription({ type: 'offer', sdp: attached.jsep?.sdp ?? '' });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await this.message(
      { request: 'start', room },
      { type: 'answer', sdp: this.pc.localDescription?.sdp ?? '', trickle: false },
    );
  }

  private onMessage(message: JanusMessage): void {
    if (message.janus === 'ack') return;
    const reply = message.transaction ? this.pending.get(message.transaction) : undefined;
    // Plugin requests answer "ack" first and the real result later as an event with the same
    // transaction; synchronous requests ("create", "attach", room "create") answer "success".
    if (
      reply &&
      (message.janus === 'success' || message.janus === 'error' || message.janus === 'event')
    ) {
      this.pending.delete(message.transaction!);
      reply(message);
    }
  }

  private message(
    body: Record<string, unknown>,
    jsep?: Record<string, unknown>,
  ): Promise<JanusMessage> {
    return this.request({
      janus: 'message',
      session_id: this.session,
      handle_id: this.handle,
      body,
      jsep,
    }).then((reply) => {
      const error = reply.plugindata?.data.error;
      if (typeof error === 'string') throw new Error(`Janus: ${error}`);
      return reply;
    });
  }

  private request(request: Record<string, unknown>): Promise<JanusMessage> {
    const transaction = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Janus: no reply to ${String(request.janus)}`)),
        20_000,
      );
      this.pending.set(transaction, (message) => {
        clearTimeout(timer);
        if (message.janus === 'error')
          reject(new Error(`Janus: ${message.error?.reason ?? 'error'}`));
        else resolve(message);
      });
      this.ws.send(JSON.stringify({ ...request, transaction }));
    });
  }

  private fire(request: Record<string, unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN)
      this.ws.send(JSON.stringify({ ...request, transaction: randomUUID() }));
  }
}
