import { VOICE_CLOSE_CODES, type TrackMapping } from '../../../../../protocol/voice-signalling';
import { captureMicrophone, type GetUserMedia } from './microphone';
import { attachRemoteAudio, detachRemoteAudio } from './remote-audio';
import {
  SfuConnection,
  SignallingClosedError,
  type JoinedMessage,
  type RoomMessage,
} from './sfu-connection';
import {
  LIVE,
  reduceRecovery,
  type RecoveryEffect,
  type RecoveryEvent,
  type RecoveryState,
  type RecoveryTimer,
} from './sfu-recovery';
import { watchNetworkChanges, type NetworkChange } from '../../../lib/network-change';
import { TransportEvents } from './transport-events';
import {
  VoiceTransportError,
  type VoiceDisconnectReason,
  type VoiceParticipant,
  type VoiceRoomState,
  type VoiceTransport,
  type VoiceTransportEvents,
} from './voice-transport';

export interface EmbeddedSfuTransportOptions {
  getUserMedia?: GetUserMedia;
  document?: Document;
  createWebSocket?: (url: string) => WebSocket;
  /** Spec §9: voice room connection timeout. */
  connectTimeoutMs?: number;
  /** How long resume / ICE restart may take before falling back to a full rejoin. */
  recoverWithinMs?: number;
  /** How long a 'disconnected' peer may recover by itself before we ask for an ICE restart. */
  iceGraceMs?: number;
  /** The browser's network changes (online, new connection type); the browser's own by default. */
  watchNetwork?: (listener: (change: NetworkChange) => void) => () => void;
}

/** How often a restart in progress looks for its new candidate pair. */
const RESTART_CHECK_MS = 100;

/**
 * Voice through the server's built-in SFU on the browser's RTCPeerConnection.
 *
 * Recovery, cheapest first, is the pure machine of `sfu-recovery.ts`: resume a dropped signalling
 * socket (`signalReconnecting`), restart ICE for a dropped peer connection (`reconnecting`), else
 * rejoin with the same token. This class feeds it events and timer ticks and runs its effects.
 */

export class EmbeddedSfuTransport implements VoiceTransport {
  private currentState: VoiceRoomState = 'disconnected';
  private readonly events = new TransportEvents();
  private connection: SfuConnection | undefined;
  private microphone: MediaStreamTrack | undefined;
  private microphoneEnabled = false;
  /** A capture the browser is still asking for; shared by everything that wants the microphone. */
  private capturing: Promise<MediaStreamTrack> | undefined;
  private self: VoiceParticipant | undefined;
  private readonly participants = new Map<string, VoiceParticipant>();
  private readonly audioByMid = new Map<string, HTMLAudioElement>();
  private url = '';
  private token = '';
  /** Bumped by every connect/disconnect so stale async work can tell it is stale. */
  private generation = 0;
  private recovery: RecoveryState = LIVE;
  private readonly timers = new Map<RecoveryTimer, ReturnType<typeof setTimeout>>();
  private stopWatchingNetwork: (() => void) | undefined;
  private readonly options: Required<Omit<EmbeddedSfuTransportOptions, 'document'>> & {
    document: Document | undefined;
  };

  constructor(options: EmbeddedSfuTransportOptions = {}) {
    this.options = {
      getUserMedia: options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c)),
      document: options.document,
      createWebSocket: options.createWebSocket ?? ((url) => new WebSocket(url)),
      connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
      recoverWithinMs: options.recoverWithinMs ?? 10_000,
      iceGraceMs: options.iceGraceMs ?? 2_000,
      watchNetwork: options.watchNetwork ?? ((listener) => watchNetworkChanges(listener)),
    };
  }

  get state(): VoiceRoomState {
    return this.currentState;
  }

  get localParticipant(): VoiceParticipant | undefined {
    return this.self;
  }

  get remoteParticipants(): readonly VoiceParticipant[] {
    return [...this.participants.values()];
  }

  get isMicrophoneEnabled(): boolean {
    return this.microphoneEnabled;
  }

  on<K extends keyof VoiceTransportEvents>(
    name: K,
    listener: (event: VoiceTransportEvents[K]) => void,
  ): () => void {
    return this.events.on(name, listener);
  }

  async connect(url: string, token: string): Promise<void> {
    if (this.currentState !== 'disconnected')
      throw new VoiceTransportError('failed', 'Already connected or connecting');
    const generation = ++this.generation;
    this.url = url;
    this.token = token;
    this.setState('connecting');
    this.stopWatchingNetwork = this.options.watchNetwork((change) => this.onNetworkChange(change));
    try {
      await this.ensureMicrophone().catch((error: unknown) => {
        // Listening still works; setMicrophoneEnabled(true) asks again and reports the denial.
        console.warn('voice: microphone unavailable at connect', error);
      });
      await this.withTimeout(this.join(generation), this.options.connectTimeoutMs);
      if (generation !== this.generation)
        throw new VoiceTransportError('failed', 'Disconnected while connecting');
      this.recovery = LIVE;
      this.setState('connected');
    } catch (error) {
      // The log says where a slow join stood: signalling, negotiation, ICE or DTLS.
      if (error instanceof VoiceTransportError && error.code === 'timeout')
        console.warn('voice: joining timed out:', this.connection?.describeProgress());
      if (generation === this.generation) this.teardown();
      throw toTransportError(error);
    }
  }

  disconnect(): Promise<void> {
    const wasConnected = this.currentState !== 'disconnected';
    if (wasConnected) {
      this.generation++;
      this.teardown();
    }
    // Also after the connection ended by itself (kicked, room closed, lost): the capture is kept
    // live between talks, and this is where its owner lets it go.
    this.microphone?.stop();
    this.microphone = undefined;
    if (wasConnected) this.events.emit('disconnected', { reason: 'client' });
    return Promise.resolve();
  }

  async setMicrophoneEnabled(on: boolean): Promise<void> {
    if (on && this.connection?.joined?.canPublish === false) {
      throw new VoiceTransportError('forbidden', 'insufficient permissions to publish');
    }
    this.microphoneEnabled = on;
    // Captured once and kept live between talks, so turning on never waits for the device.
    if (on) await this.ensureMicrophone();
    // A later call may have switched it again while capturing: the latest switch wins.
    if (this.microphone) this.microphone.enabled = this.microphoneEnabled;
    // On: the publish slot sends the track. Off: it holds none, so no RTP goes out at all.
    await this.connection?.updateMicrophone();
  }

  /** The peer connection's statistics (diagnostics, tests); undefined while not connected. */
  async getStats(): Promise<RTCStatsReport | undefined> {
    return this.connection?.pc?.getStats();
  }

  // ---- connection lifecycle ----

  private async join(generation: number): Promise<void> {
    const connection = new SfuConnection(
      this.url,
      this.token,
      this.hooksFor(generation),
      this.options.createWebSocket,
    );
    this.connection = connection;
    const joined = await connection.open('join');
    if (generation !== this.generation) return;
    this.applyJoined(joined);
    await this.waitForPeer(connection, 'connected');
  }

  private hooksFor(generation: number): ConstructorParameters<typeof SfuConnection>[2] {
    const current = () => generation === this.generation;
    return {
      onRoomMessage: (message) => current() && this.onRoomMessage(message),
      onRemoteTrack: (track, mapping) => current() && this.onRemoteTrack(track, mapping),
      onTracksChanged: (active) => current() && this.onTracksChanged(active),
      onPeerState: (state) => current() && this.onPeerState(state),
      onSocketClosed: (code) => current() && this.onSocketClosed(code),
      microphone: () => (this.microphoneEnabled ? this.microphone : undefined),
    };
  }

  private applyJoined(joined: JoinedMessage): void {
    this.self = joined.self;
    const fresh = new Map(joined.participants.map((p) => [p.identity, p]));
    for (const [identity, participant] of this.participants) {
      if (!fresh.has(identity)) {
        this.participants.delete(identity);
        this.events.emit('participantLeft', participant);
      }
    }
    for (const [identity, participant] of fresh) {
      if (!this.participants.has(identity)) {
        this.participants.set(identity, participant);
        this.events.emit('participantJoined', participant);
      }
    }
  }

  private onRoomMessage(message: RoomMessage): void {
    switch (message.type) {
      case 'participant_joined':
        this.participants.set(message.participant.identity, message.participant);
        this.events.emit('participantJoined', message.participant);
        return;
      case 'participant_left': {
        const participant = this.participants.get(message.identity);
        this.participants.delete(message.identity);
        this.removeAudio((element) => element.dataset.participantIdentity === message.identity);
        if (participant) this.events.emit('participantLeft', participant);
        return;
      }
      case 'speaking': {
        const participant = this.participantFor(message.identity);
        if (participant)
          this.events.emit('speakingChanged', {
            participant,
            speaking: message.speaking,
            level: message.level,
          });
        return;
      }
      case 'publisher_muted': {
        const participant = this.participantFor(message.identity);
        if (participant)
          this.events.emit('participantMuted', { participant, muted: message.muted });
        return;
      }
      case 'error':
        console.warn('voice: server error', message.code, message.message);
        return;
    }
  }

  private onRemoteTrack(track: MediaStreamTrack, mapping: TrackMapping): void {
    const existing = this.audioByMid.get(mapping.mid);
    if (existing) detachRemoteAudio(existing);
    this.audioByMid.set(
      mapping.mid,
      attachRemoteAudio(track, mapping, this.options.document ?? document),
    );
  }

  private onTracksChanged(active: readonly TrackMapping[]): void {
    const mids = new Set(active.map((m) => m.mid));
    this.removeAudio((element) => !mids.has(element.dataset.mid ?? ''));
  }

  private onPeerState(state: RTCPeerConnectionState): void {
    if (this.currentState === 'disconnected' || this.currentState === 'connecting') return;
    this.recover({ type: 'peer', state, now: Date.now() });
  }

  /** A new network: the ICE pairs of the old one are dead, whatever ICE says yet. */
  private onNetworkChange(change: NetworkChange): void {
    if (change === 'offline') return;
    if (this.currentState === 'disconnected' || this.currentState === 'connecting') return;
    this.recover({ type: 'network', now: Date.now() });
  }

  private onSocketClosed(code: number): void {
    if (this.currentState === 'disconnected' || this.currentState === 'connecting') return;
    this.recover({ type: 'socket_closed', code, now: Date.now() });
  }

  /** One step of the recovery machine, with its effects carried out for this generation. */
  private recover(event: RecoveryEvent): void {
    const { state, effects } = reduceRecovery(this.recovery, event, this.options);
    this.recovery = state;
    const generation = this.generation;
    for (const effect of effects) this.runRecovery(effect, generation);
  }

  private runRecovery(effect: RecoveryEffect, generation: number): void {
    const current = () => generation === this.generation;
    switch (effect.kind) {
      case 'state':
        this.setState(effect.state);
        return;
      case 'start_timer': {
        clearTimeout(this.timers.get(effect.timer));
        const timer = effect.timer;
        this.timers.set(
          timer,
          setTimeout(() => {
            this.timers.delete(timer);
            if (current()) this.recover({ type: 'timer', timer, now: Date.now() });
          }, effect.ms),
        );
        return;
      }
      case 'cancel_timers':
        this.clearTimers();
        return;
      case 'resume': {
        const connection = this.connection;
        if (!connection) return;
        this.withTimeout(connection.open('resume'), effect.withinMs).then(
          (joined) => {
            if (!current()) return;
            // Joins and leaves during the gap were sent to the dead socket; the snapshot catches up.
            this.applyJoined(joined);
            const peerConnected = connection.pc?.connectionState === 'connected';
            this.recover({ type: 'resumed', peerConnected, now: Date.now() });
          },
          (error: unknown) => {
            if (!current()) return;
            const code = error instanceof SignallingClosedError ? error.code : null;
            this.recover({ type: 'resume_failed', code, now: Date.now() });
          },
        );
        return;
      }
      case 'restart_ice': {
        const connection = this.connection;
        if (!connection) return;
        connection.requestIceRestart();
        this.watchRestart(connection, generation);
        return;
      }
      case 'rejoin':
        this.connection?.close(false);
        this.removeAudio(() => true);
        this.withTimeout(this.join(generation), this.options.connectTimeoutMs).then(
          () => {
            if (current()) this.recover({ type: 'rejoined' });
          },
          (error: unknown) => {
            if (!current()) return;
            const code = error instanceof SignallingClosedError ? error.code : null;
            this.recover({ type: 'rejoin_failed', code });
          },
        );
        return;
      case 'finish':
        this.finish(effect.reason);
        return;
    }
  }

  /**
   * Ends the restart once ICE carries the connection on a new pair. A restart asked because the
   * network changed often finds the peer still 'connected' (ICE had not noticed the old path die),
   * so the peer's state alone would never say the restart is over.
   */
  private watchRestart(connection: SfuConnection, generation: number): void {
    const stillRestarting = () =>
      generation === this.generation &&
      this.connection === connection &&
      this.recovery.phase === 'restarting_ice';
    const check = (before: string | undefined) => {
      if (!stillRestarting()) return;
      connection.selectedPair().then(
        (pair) => {
          if (!stillRestarting()) return;
          if (pair && pair !== before && connection.pc?.connectionState === 'connected')
            this.recover({ type: 'peer', state: 'connected', now: Date.now() });
          else setTimeout(() => check(before), RESTART_CHECK_MS);
        },
        () => setTimeout(() => check(before), RESTART_CHECK_MS),
      );
    };
    connection.selectedPair().then(
      (before) => setTimeout(() => check(before), RESTART_CHECK_MS),
      () => setTimeout(() => check(undefined), RESTART_CHECK_MS),
    );
  }

  private clearTimers(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private waitForPeer(connection: SfuConnection, wanted: RTCPeerConnectionState): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const pc = connection.pc;
        if (pc?.connectionState === wanted) resolve();
        else if (connection.isClosed || pc?.connectionState === 'closed')
          reject(new VoiceTransportError('failed', 'Failed to connect to voice room'));
        else setTimeout(check, 50);
      };
      check();
    });
  }

  /** The live microphone, captured at most once at a time (on, off, on while asking: one capture). */
  private ensureMicrophone(): Promise<MediaStreamTrack> {
    if (this.microphone && this.microphone.readyState === 'live')
      return Promise.resolve(this.microphone);
    this.capturing ??= captureMicrophone(this.options.getUserMedia)
      .then((track) => {
        if (this.currentState === 'disconnected') {
          // Left while the browser was asking: a capture kept now would never be stopped.
          track.stop();
          throw new VoiceTransportError('failed', 'Disconnected while capturing the microphone');
        }
        track.enabled = this.microphoneEnabled;
        this.microphone = track;
        return track;
      })
      .finally(() => {
        this.capturing = undefined;
      });
    return this.capturing;
  }

  private participantFor(identity: string): VoiceParticipant | undefined {
    return this.self?.identity === identity ? this.self : this.participants.get(identity);
  }

  private removeAudio(match: (element: HTMLAudioElement) => boolean): void {
    for (const [mid, element] of this.audioByMid) {
      if (match(element)) {
        detachRemoteAudio(element);
        this.audioByMid.delete(mid);
      }
    }
  }

  private finish(reason: VoiceDisconnectReason): void {
    this.generation++;
    this.teardown();
    this.events.emit('disconnected', { reason });
  }

  private teardown(): void {
    this.stopWatchingNetwork?.();
    this.stopWatchingNetwork = undefined;
    this.clearTimers();
    this.recovery = LIVE;
    this.connection?.close(true);
    this.connection = undefined;
    this.removeAudio(() => true);
    for (const participant of this.participants.values())
      this.events.emit('participantLeft', participant);
    this.participants.clear();
    this.self = undefined;
    this.setState('disconnected');
  }

  private setState(state: VoiceRoomState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.events.emit('stateChanged', state);
  }

  private withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new VoiceTransportError(
              'timeout',
              'Connection timeout - please check your internet connection',
            ),
          ),
        ms,
      );
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}

function toTransportError(error: unknown): VoiceTransportError {
  if (error instanceof VoiceTransportError) return error;
  if (error instanceof SignallingClosedError) {
    if (error.code === VOICE_CLOSE_CODES.unauthorized)
      return new VoiceTransportError('unauthorized', 'Voice token refused');
    if (error.code === VOICE_CLOSE_CODES.unsupportedVersion) {
      return new VoiceTransportError(
        'unsupported_version',
        'Voice server speaks another protocol version',
      );
    }
    return new VoiceTransportError(
      'network',
      'Network error - please check your internet connection',
    );
  }
  return new VoiceTransportError('failed', 'Failed to connect to voice room');
}
