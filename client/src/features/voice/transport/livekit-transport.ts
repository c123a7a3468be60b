import type { CreateLiveKitRoom, LiveKitParticipantLike, LiveKitRoomPort } from './livekit-port';
import { liveKitRoomOptions } from './livekit-port';
import { attachRemoteAudio, detachRemoteAudio } from './remote-audio';
import { TransportEvents } from './transport-events';
import {
  VoiceTransportError,
  type VoiceParticipant,
  type VoiceRoomState,
  type VoiceTransport,
  type VoiceTransportEvents,
} from './voice-transport';

/** Spec §3: an identity is `<userId>-<epoch ms>-<random>`; drop the last two segments. */
export function userIdFromIdentity(identity: string): string {
  const parts = identity.split('-');
  return parts.length > 2 ? parts.slice(0, -2).join('-') : identity;
}

function toParticipant(p: LiveKitParticipantLike): VoiceParticipant {
  return { identity: p.identity, userId: userIdFromIdentity(p.identity), name: p.name ?? '' };
}

const TIMEOUT_MESSAGE = 'Connection timeout - please check your internet connection';

/**
 * A walkie-talkie floor grant reaches the page over `/ws` while LiveKit carries the
 * publish right it came with over its own connection: either may arrive first. Turning the
 * microphone on without the right waits this long for it before saying the user is muted.
 */
export const PUBLISH_RIGHT_WAIT_MS = 2_000;

/**
 * Voice through LiveKit behind the same interface as the built-in SFU; `create-transport.ts` loads
 * it with a dynamic import when the token names LiveKit. The microphone follows what the user wants
 * (`setMicrophoneEnabled`) across admin mutes: LiveKit unpublishes it when the publish right is
 * revoked, and this transport publishes it again as soon as the right comes back.
 */
export class LiveKitTransport implements VoiceTransport {
  private room: LiveKitRoomPort | undefined;
  private unsubscribe: (() => void) | undefined;
  private currentState: VoiceRoomState = 'disconnected';
  private microphoneEnabled = false;
  /** What the user last asked for; an admin unmute restores it without them doing anything. */
  private microphoneWanted = false;
  private readonly events = new TransportEvents();
  private readonly audio = new Map<string, HTMLAudioElement>();
  private speaking = new Set<string>();
  /** An SOS countdown is on: publish muted once the right allows (decision 054). */
  private microphoneArmed = false;
  /** Microphone requests waiting for the publish right (see PUBLISH_RIGHT_WAIT_MS). */
  private readonly rightWaiters = new Set<(granted: boolean) => void>();

  constructor(
    private readonly createRoom: CreateLiveKitRoom,
    private readonly options: { connectTimeoutMs?: number; document?: Document } = {},
  ) {}

  get state(): VoiceRoomState {
    return this.currentState;
  }

  get localParticipant(): VoiceParticipant | undefined {
    const local = this.room?.localParticipant;
    return local ? toParticipant(local) : undefined;
  }

  get remoteParticipants(): readonly VoiceParticipant[] {
    return (this.room?.remoteParticipants ?? []).map(toParticipant);
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
    if (this.room) throw new VoiceTransportError('failed', 'Already connected or connecting');
    const room = this.createRoom(liveKitRoomOptions());
    this.room = room;
    this.unsubscribe = room.subscribe(this.handlersFor(room));
    this.setState('connecting');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new VoiceTransportError('timeout', TIMEOUT_MESSAGE)),
        this.options.connectTimeoutMs ?? 15_000,
      );
    });
    try {
      await Promise.race([room.connect(url, token), timeout]);
      this.setState('connected');
    } catch (error) {
      this.teardown();
      await room.disconnect().catch(() => undefined);
      throw error instanceof VoiceTransportError
        ? error
        : new VoiceTransportError('failed', 'Failed to connect to voice room');
    } finally {
      clearTimeout(timer);
    }
  }

  async disconnect(): Promise<void> {
    const room = this.room;
    if (!room) return;
    this.teardown();
    await room.disconnect();
    this.events.emit('disconnected', { reason: 'client' });
  }

  async setMicrophoneEnabled(on: boolean): Promise<void> {
    this.microphoneWanted = on;
    if (!on) this.settleRightWaiters(false);
    if (on && this.room && !this.room.canPublish()) {
      // The right may be on its way; when it arrives, publishPermissionChanged publishes what is
      // captured meanwhile (an SOS or a floor grant: the capture is off the path to being heard).
      const room = this.room;
      room.prepareMicrophone();
      if (await this.publishRightWithin(PUBLISH_RIGHT_WAIT_MS)) return;
      room.releasePreparedMicrophone();
      if (!this.microphoneWanted) return;
      throw new VoiceTransportError('forbidden', 'insufficient permissions to publish');
    }
    if (!on) this.room?.releasePreparedMicrophone();
    this.microphoneEnabled = on;
    await this.room?.setMicrophoneEnabled(on);
  }

  armMicrophone(armed: boolean): void {
    this.microphoneArmed = armed;
    const room = this.room;
    if (!room || this.microphoneWanted) return;
    if (!armed) room.releasePreparedMicrophone();
    else if (room.canPublish()) this.publishMuted(room);
    // The right is on its way: capture meanwhile, publish when it comes (publishPermissionChanged).
    else room.prepareMicrophone();
  }

  private publishMuted(room: LiveKitRoomPort): void {
    room.publishMutedMicrophone().catch((error: unknown) => {
      // The SOS still goes: its microphone is published when it opens, only later.
      console.warn('voice: the SOS microphone could not be published ahead', error);
    });
  }

  private publishRightWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (granted: boolean) => {
        clearTimeout(timer);
        this.rightWaiters.delete(done);
        resolve(granted);
      };
      const timer = setTimeout(() => done(false), ms);
      this.rightWaiters.add(done);
    });
  }

  private settleRightWaiters(granted: boolean): void {
    for (const done of [...this.rightWaiters]) done(granted);
  }

  private handlersFor(room: LiveKitRoomPort) {
    const current = () => this.room === room;
    return {
      connectionStateChanged: (state: VoiceRoomState) => {
        // 'connected' is announced by connect() itself, after the timeout race.
        if (current() && (state !== 'connected' || this.currentState !== 'connecting'))
          this.setState(state);
      },
      participantConnected: (p: LiveKitParticipantLike) => {
        if (current()) this.events.emit('participantJoined', toParticipant(p));
      },
      participantDisconnected: (p: LiveKitParticipantLike) => {
        if (!current()) return;
        this.removeAudio((element) => element.dataset.participantIdentity === p.identity);
        this.events.emit('participantLeft', toParticipant(p));
      },
      activeSpeakersChanged: (speakers: readonly LiveKitParticipantLike[]) => {
        if (current()) this.updateSpeakers(speakers);
      },
      audioTrackSubscribed: (track: MediaStreamTrack, sid: string, p: LiveKitParticipantLike) => {
        if (!current()) return;
        // Echo prevention (spec §6): never play our own audio back.
        if (p.identity === room.localParticipant?.identity) return;
        const tag = { identity: p.identity, userId: userIdFromIdentity(p.identity), mid: sid };
        this.audio.set(sid, attachRemoteAudio(track, tag, this.options.document ?? document));
      },
      audioTrackUnsubscribed: (sid: string) => {
        if (current()) this.removeAudio((element) => element.dataset.mid === sid);
      },
      publishPermissionChanged: (canPublish: boolean) => {
        if (!current()) return;
        const local = room.localParticipant;
        if (local)
          this.events.emit('participantMuted', {
            participant: toParticipant(local),
            muted: !canPublish,
          });
        if (!canPublish) {
          // The server has unpublished the microphone; it comes back with the right.
          this.microphoneEnabled = false;
          return;
        }
        if (!this.microphoneWanted) {
          if (this.microphoneArmed) this.publishMuted(room);
          return;
        }
        this.settleRightWaiters(true);
        this.microphoneEnabled = true;
        room.setMicrophoneEnabled(true).catch((error: unknown) => {
          this.microphoneEnabled = false;
          console.warn(
            'voice: publishing the microphone again after an admin unmute failed',
            error,
          );
        });
      },
      disconnected: (reason: VoiceTransportEvents['disconnected']['reason']) => {
        if (!current() || reason === 'client') return;
        this.teardown();
        this.events.emit('disconnected', { reason });
      },
    };
  }

  private updateSpeakers(speakers: readonly LiveKitParticipantLike[]): void {
    const now = new Set(speakers.map((p) => p.identity));
    for (const p of speakers) {
      if (!this.speaking.has(p.identity))
        this.events.emit('speakingChanged', {
          participant: toParticipant(p),
          speaking: true,
          level: 1,
        });
    }
    for (const identity of this.speaking) {
      if (!now.has(identity)) {
        const participant: VoiceParticipant = {
          identity,
          userId: userIdFromIdentity(identity),
          name: '',
        };
        this.events.emit('speakingChanged', { participant, speaking: false, level: 0 });
      }
    }
    this.speaking = now;
  }

  private removeAudio(match: (element: HTMLAudioElement) => boolean): void {
    for (const [sid, element] of this.audio) {
      if (match(element)) {
        detachRemoteAudio(element);
        this.audio.delete(sid);
      }
    }
  }

  private teardown(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.room = undefined;
    this.removeAudio(() => true);
    this.speaking.clear();
    this.setState('disconnected');
  }

  private setState(state: VoiceRoomState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.events.emit('stateChanged', state);
  }
}
