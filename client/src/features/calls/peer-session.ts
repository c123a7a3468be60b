import { PEER_RECONNECT_DELAY_MS, type SignalServerMessage } from '../../../../protocol/calls';
import { playOnChosenSpeaker, withChosenMicrophone } from '../voice-preferences/audio-devices';
import { watchNetworkChanges, type NetworkChange } from '../../lib/network-change';
import type { MediaStatus } from './call-state';
import { SignallingSocket } from './signalling-socket';

/** Spec §9 "Audio capture": echo cancellation, noise suppression and auto gain control on. */
export const CALL_AUDIO_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

/** The remote party's audio element carries this attribute (and the call id as its value). */
export const REMOTE_CALL_AUDIO_ATTRIBUTE = 'data-call-remote-audio';

export interface PeerSessionOptions {
  callId: string;
  roomName: string;
  userId: string;
  isInitiator: boolean;
  /** STUN by default, TURN when configured (`GET /api/calls/ice-servers`). */
  iceServers(): Promise<RTCIceServer[]>;
  onStatus(status: MediaStatus): void;
  /** The call's room is gone (ended elsewhere) — the call is over. */
  onRoomGone(): void;
  onMicrophoneError(error: unknown): void;
  /** The browser's network changes (online, new connection type); the browser's own by default. */
  watchNetwork?: (listener: (change: NetworkChange) => void) => () => void;
}

/**
 * The browser-to-browser audio of one call. The caller offers once the other party joins the room;
 * on `disconnected`/`failed` it retries after 3 s with an ICE restart (and fresh ICE servers). When
 * this browser's network changes (back online, a new connection type), the side that changed
 * network restarts ICE at once, whichever side it is: its old addresses are gone, and waiting for
 * ICE to notice costs seconds of silence. Offers from both sides can then cross: the caller keeps
 * its own, the callee rolls its own back and answers (perfect negotiation's polite side). Only the
 * remote stream is ever played: the local microphone goes to the peer connection and nowhere else
 * (no echo).
 */
export class PeerSession {
  private pc: RTCPeerConnection | null = null;
  private readonly signalling: SignallingSocket;
  private readonly audio: HTMLAudioElement;
  private local: MediaStream | null = null;
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private offeredOnce = false;
  private muted = false;
  private closed = false;
  private readonly stopWatchingNetwork: () => void;

  constructor(private readonly options: PeerSessionOptions) {
    this.audio = remoteAudioElement(options.callId);
    this.signalling = new SignallingSocket(options.roomName, options.userId, {
      message: (message) => this.guard(this.onSignal(message)),
      roomGone: () => options.onRoomGone(),
    });
    const watch = options.watchNetwork ?? ((listener) => watchNetworkChanges(listener));
    this.stopWatchingNetwork = watch((change) => this.onNetworkChange(change));
  }

  /** Creates the peer connection, opens the microphone, then joins the signalling room. */
  async start(): Promise<void> {
    const iceServers = await this.options.iceServers().catch(() => []);
    if (this.closed) return;
    const pc = this.createConnection(iceServers);
    this.pc = pc;
    try {
      this.local = await navigator.mediaDevices.getUserMedia({
        audio: withChosenMicrophone(CALL_AUDIO_CONSTRAINTS),
        video: false,
      });
    } catch (error) {
      this.options.onMicrophoneError(error);
    }
    if (this.closed) return this.stopLocal();
    const local = this.local;
    if (local) {
      for (const track of local.getAudioTracks()) {
        track.enabled = !this.muted;
        pc.addTrack(track, local);
      }
    } else {
      pc.addTransceiver('audio', { direction: 'recvonly' });
    }
    this.signalling.open();
  }

  /** Spec §4: mute disables the local audio tracks (nothing is renegotiated). */
  setMuted(muted: boolean): void {
    this.muted = muted;
    for (const track of this.local?.getAudioTracks() ?? []) track.enabled = !muted;
  }

  close(): void {
    this.closed = true;
    this.stopWatchingNetwork();
    clearTimeout(this.reconnectTimer);
    this.signalling.close();
    this.pc?.close();
    this.pc = null;
    this.stopLocal();
    this.audio.srcObject = null;
    this.audio.remove();
  }

  private createConnection(iceServers: RTCIceServer[]): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers });
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate) return;
      const { sdpMid, sdpMLineIndex, usernameFragment } = candidate;
      this.signalling.send({
        type: 'ice_candidate',
        roomName: this.options.roomName,
        candidate: { candidate: candidate.candidate, sdpMid, sdpMLineIndex, usernameFragment },
      });
    };
    pc.ontrack = ({ streams, track }) => {
      this.audio.srcObject = streams[0] ?? new MediaStream([track]);
      this.audio
        .play()
        .catch((error: unknown) => console.warn('Remote call audio did not start', error));
    };
    pc.onconnectionstatechange = () => this.onConnectionState(pc);
    return pc;
  }

  private async onSignal(message: SignalServerMessage): Promise<void> {
    const pc = this.pc;
    if (!pc || this.closed) return;
    switch (message.type) {
      case 'peer_joined':
        if (!this.options.isInitiator) return;
        // The other side (re)joined: an offer still waiting for its answer was lost with its socket.
        if (pc.signalingState === 'have-local-offer')
          await pc.setLocalDescription({ type: 'rollback' });
        await this.offer(pc, this.offeredOnce);
        return;
      case 'offer':
        if (pc.signalingState === 'have-local-offer') {
          // Both sides restarted at once: the caller's offer wins.
          if (this.options.isInitiator) return;
          await pc.setLocalDescription({ type: 'rollback' });
        }
        await pc.setRemoteDescription(message.offer);
        await this.flushCandidates(pc);
        await pc.setLocalDescription(await pc.createAnswer());
        this.signalling.send({
          type: 'answer',
          roomName: this.options.roomName,
          answer: localSdp(pc, 'answer'),
        });
        return;
      case 'answer':
        if (pc.signalingState !== 'have-local-offer') return;
        await pc.setRemoteDescription(message.answer);
        await this.flushCandidates(pc);
        return;
      case 'ice_candidate':
        if (!message.candidate) return;
        if (pc.remoteDescription) await pc.addIceCandidate(message.candidate);
        else this.pendingCandidates.push(message.candidate);
        return;
    }
  }

  private async offer(pc: RTCPeerConnection, iceRestart: boolean): Promise<void> {
    if (this.closed || pc.signalingState !== 'stable') return;
    this.offeredOnce = true;
    await pc.setLocalDescription(await pc.createOffer({ iceRestart }));
    this.signalling.send({
      type: 'offer',
      roomName: this.options.roomName,
      offer: localSdp(pc, 'offer'),
    });
  }

  private onConnectionState(pc: RTCPeerConnection): void {
    const state = pc.connectionState;
    if (state === 'connected') {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.options.onStatus('connected');
      return;
    }
    if (state !== 'disconnected' && state !== 'failed') return;
    this.options.onStatus('connecting');
    if (this.reconnectTimer !== undefined) return;
    // Spec §4: reconnect after 3 s. The caller restarts ICE; the callee answers the new offer.
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      const now = pc.connectionState;
      if (this.closed || (now !== 'disconnected' && now !== 'failed')) return;
      this.guard(this.restart(pc));
    }, PEER_RECONNECT_DELAY_MS);
  }

  /** Only a call that got connected restarts: before that, the first offer is still on its way. */
  private onNetworkChange(change: NetworkChange): void {
    const pc = this.pc;
    if (change === 'offline' || !pc || this.closed || !pc.remoteDescription) return;
    if (pc.connectionState === 'new' || pc.connectionState === 'connecting') return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.guard(this.restart(pc, true));
  }

  /**
   * TURN credentials last an hour at most (the server's TURN_TTL), and a relay allocation dies
   * with its credential: both sides take fresh ICE servers before the restart gathers candidates,
   * so a call longer than the credential comes back through the relay.
   */
  private async restart(pc: RTCPeerConnection, networkChanged = false): Promise<void> {
    const iceServers = await this.options.iceServers().catch(() => undefined);
    if (this.closed || this.pc !== pc) return;
    if (iceServers) pc.setConfiguration({ ...pc.getConfiguration(), iceServers });
    if (this.options.isInitiator || networkChanged) await this.offer(pc, true);
  }

  private async flushCandidates(pc: RTCPeerConnection): Promise<void> {
    const queued = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const candidate of queued) await pc.addIceCandidate(candidate);
  }

  private stopLocal(): void {
    for (const track of this.local?.getTracks() ?? []) track.stop();
    this.local = null;
  }

  private guard(work: Promise<void>): void {
    work.catch((error: unknown) => console.error('Call signalling failed', error));
  }
}

function localSdp<T extends 'offer' | 'answer'>(
  pc: RTCPeerConnection,
  type: T,
): { type: T; sdp: string } {
  return { type, sdp: pc.localDescription?.sdp ?? '' };
}

function remoteAudioElement(callId: string): HTMLAudioElement {
  const audio = document.createElement('audio');
  audio.autoplay = true;
  audio.hidden = true;
  audio.setAttribute(REMOTE_CALL_AUDIO_ATTRIBUTE, callId);
  // Not in the channel voice's container: channel mute and its cleanup must not touch a call.
  document.body.appendChild(audio);
  playOnChosenSpeaker(audio);
  return audio;
}
