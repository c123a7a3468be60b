import {
  VOICE_SIGNALLING_VERSION,
  parseVoiceMessage,
  serverVoiceMessageSchema,
  type ClientVoiceMessage,
  type ServerVoiceMessage,
  type TrackMapping,
} from '../../../../../protocol/voice-signalling';

export type JoinedMessage = Extract<ServerVoiceMessage, { type: 'joined' }>;
type OfferMessage = Extract<ServerVoiceMessage, { type: 'offer' }>;
/** Everything the server sends after `joined`, apart from offers, which this class handles. */
export type RoomMessage = Exclude<ServerVoiceMessage, JoinedMessage | OfferMessage>;

export interface SfuConnectionHooks {
  onRoomMessage(message: RoomMessage): void;
  onRemoteTrack(track: MediaStreamTrack, mapping: TrackMapping): void;
  /** After each offer: the m-lines that still carry a talker; others' audio elements go away. */
  onTracksChanged(active: readonly TrackMapping[]): void;
  onPeerState(state: RTCPeerConnectionState): void;
  /** The signalling socket closed after `joined` (not by `close()`). */
  onSocketClosed(code: number): void;
  /**
   * What the publish slot should send now: the microphone while it is on, nothing (undefined)
   * while it is off. Read each time the slot is set, so the latest switch wins.
   */
  microphone(): MediaStreamTrack | undefined;
}

/**
 * How long a switched-off microphone still sends (disabled, so silence) before the publish slot
 * lets it go: five 20 ms frames, enough for listeners' decoders to end the talk on silence.
 */
export const SILENCE_BEFORE_STOP_MS = 100;

/** Raised while opening: the close code tells a refused token from a network problem. */
export class SignallingClosedError extends Error {
  constructor(readonly code: number) {
    super(`signalling closed (${code})`);
  }
}

/**
 * One signalling socket plus the browser peer connection it negotiates. The SFU always offers; this
 * side answers, trickles candidates, sets the publish slot's track (the microphone while it is on,
 * none while it is off: no RTP between talks) and maps each received m-line to the talker the
 * server named for it. A resume swaps the socket and keeps the peer connection.
 */
export class SfuConnection {
  pc: RTCPeerConnection | undefined;
  joined: JoinedMessage | undefined;
  private ws: WebSocket | undefined;
  private publishSender: RTCRtpSender | undefined;
  /** Track changes of the publish slot, one at a time, each to what `microphone()` says then. */
  private microphoneChain: Promise<void> = Promise.resolve();
  private readonly mappingByMid = new Map<string, TrackMapping>();
  private offerChain: Promise<void> = Promise.resolve();
  private closed = false;
  /** How far the last open got, for the log when a join times out. */
  private stage = 'opening the signalling socket';

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly hooks: SfuConnectionHooks,
    private readonly createSocket: (url: string) => WebSocket,
  ) {}

  /** Opens a socket and sends `join` (new session) or `resume` (same session, new socket). */
  open(kind: 'join' | 'resume'): Promise<JoinedMessage> {
    const ws = this.createSocket(this.url);
    this.ws = ws;
    return new Promise<JoinedMessage>((resolve, reject) => {
      let joined = false;
      ws.onopen = () => {
        this.stage = `${kind} sent, waiting for "joined"`;
        const first: ClientVoiceMessage =
          kind === 'join' || !this.joined
            ? { type: 'join', version: VOICE_SIGNALLING_VERSION, token: this.token }
            : {
                type: 'resume',
                version: VOICE_SIGNALLING_VERSION,
                token: this.token,
                sessionId: this.joined.sessionId,
              };
        ws.send(JSON.stringify(first));
      };
      ws.onmessage = (event: MessageEvent) => {
        // A socket replaced by a later resume attempt has nothing more to say.
        if (this.ws !== ws || typeof event.data !== 'string') return;
        const message = parseVoiceMessage(serverVoiceMessageSchema, event.data);
        if (!message) {
          console.warn('voice: malformed signalling message ignored');
          return;
        }
        if (message.type === 'joined') {
          joined = true;
          this.stage = 'joined, waiting for the offer';
          this.joined = message;
          if (!this.pc) this.createPeer(message);
          resolve(message);
        } else if (message.type === 'offer') {
          this.offerChain = this.offerChain
            .then(() => this.answer(message))
            .catch((error: unknown) => {
              // A connection closed meanwhile rejects what was queued on it: nothing failed.
              if (!this.closed) console.error('voice: negotiation failed', error);
            });
        } else if (joined) {
          this.hooks.onRoomMessage(message);
        }
      };
      ws.onclose = (event: CloseEvent) => {
        if (this.ws !== ws || this.closed) return;
        if (joined) this.hooks.onSocketClosed(event.code);
        else reject(new SignallingClosedError(event.code));
      };
    });
  }

  /** Where a join stands: signalling, negotiation, and the peer connection's ICE and DTLS. */
  describeProgress(): string {
    const pc = this.pc;
    const peer = pc ? `ICE ${pc.iceConnectionState}, peer ${pc.connectionState}` : 'no peer yet';
    return `${this.stage}; ${peer}`;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isSocketOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  requestIceRestart(): void {
    this.send({ type: 'restart_ice' });
  }

  /**
   * The ICE candidate pair carrying the connection now, once its checks succeeded (undefined
   * before). A restart that succeeds moves to a new pair (new credentials, new candidates) while
   * the connection's state may never leave 'connected': this is how its end is seen.
   */
  async selectedPair(): Promise<string | undefined> {
    const pc = this.pc;
    if (!pc) return undefined;
    const stats = await pc.getStats();
    let pairId: string | undefined;
    stats.forEach((report: { type: string; selectedCandidatePairId?: string }) => {
      if (report.type === 'transport' && report.selectedCandidatePairId)
        pairId = report.selectedCandidatePairId;
    });
    if (!pairId) return undefined;
    const pair = stats.get(pairId) as { state?: string } | undefined;
    return pair?.state === 'succeeded' ? pairId : undefined;
  }

  /**
   * The microphone went on or off: the publish slot's sender takes the track, or lets it go so the
   * browser sends no RTP at all (with a disabled track, DTX still sent a packet every 400 ms). The
   * same slot, no renegotiation. Before the slot is negotiated this does nothing: the answer sets
   * it. Rejects with the browser's error; the next call still runs.
   */
  updateMicrophone(): Promise<void> {
    const step = this.microphoneChain.then(() => this.applyMicrophone());
    this.microphoneChain = step.catch(() => undefined);
    return step;
  }

  private async applyMicrophone(): Promise<void> {
    const sender = this.publishSender;
    if (!sender || this.closed) return;
    if (sender.track && !this.hooks.microphone()) {
      // Off: the track is already disabled, so what goes out now is silence. Let a few frames of
      // it reach the listeners before the stream stops, so their decoders end the talk on silence
      // instead of concealing its last syllable (heard ~300 ms after the release, against ~120).
      await new Promise((resolve) => setTimeout(resolve, SILENCE_BEFORE_STOP_MS));
      if (this.closed) return;
    }
    const wanted = this.hooks.microphone() ?? null;
    if (sender.track !== wanted) await sender.replaceTrack(wanted);
  }

  close(leave: boolean): void {
    if (this.closed) return;
    this.closed = true;
    if (leave) this.send({ type: 'leave' });
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
    this.pc?.close();
  }

  private send(message: ClientVoiceMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private createPeer(joined: JoinedMessage): void {
    const pc = new RTCPeerConnection({ iceServers: joined.iceServers, bundlePolicy: 'max-bundle' });
    this.pc = pc;
    pc.onicecandidate = (event) => {
      const c = event.candidate;
      if (!c?.candidate) return;
      this.send({
        type: 'ice_candidate',
        candidate: {
          candidate: c.candidate,
          sdpMid: c.sdpMid,
          sdpMLineIndex: c.sdpMLineIndex,
          usernameFragment: c.usernameFragment,
        },
      });
    };
    pc.ontrack = (event) => {
      const mapping = this.mappingByMid.get(event.transceiver.mid ?? '');
      if (mapping) this.hooks.onRemoteTrack(event.track, mapping);
    };
    pc.onconnectionstatechange = () => this.hooks.onPeerState(pc.connectionState);
  }

  private async answer(offer: OfferMessage): Promise<void> {
    const pc = this.pc;
    if (!pc || this.closed) return;
    for (const mapping of offer.tracks) this.mappingByMid.set(mapping.mid, mapping);
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    if (offer.publishMid !== null && !this.publishSender) {
      const slot = pc.getTransceivers().find((t) => t.mid === offer.publishMid);
      if (slot) {
        // Negotiated once per connection; talking then only sets the slot's track, and only while
        // the microphone is on (an offer that arrives while it is off leaves the slot empty).
        slot.direction = 'sendonly';
        this.publishSender = slot.sender;
        // Answered either way: a microphone the browser refused here can still be set later.
        await this.updateMicrophone().catch((error: unknown) =>
          console.warn('voice: microphone not set on the publish slot', error),
        );
      }
    }
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    this.stage = `answered offer ${offer.negotiationId}`;
    this.send({
      type: 'answer',
      negotiationId: offer.negotiationId,
      sdp: pc.localDescription?.sdp ?? answer.sdp ?? '',
    });
    const active = new Set(offer.tracks.map((t) => t.mid));
    for (const mid of [...this.mappingByMid.keys()])
      if (!active.has(mid)) this.mappingByMid.delete(mid);
    this.hooks.onTracksChanged(offer.tracks);
  }
}
