import type { VoiceProviderName } from '../../../../../protocol/voice';
import {
  VoiceTransportError,
  type VoiceRoomState,
  type VoiceTransport,
} from '../transport/voice-transport';
import {
  initialRoomState,
  isRoomConnected,
  reduceRoom,
  roomStateOf,
  type AttemptFailure,
  type RoomEffect,
  type RoomEvent,
  type RoomMachineState,
  type RoomPhase,
  type RoomTarget,
} from './room-machine';
import { endUsageSession, fetchVoiceToken, startUsageSession, type Fetch } from './room-requests';

/** Spec §9: the token request is aborted after 10 s. */
export const TOKEN_TIMEOUT_MS = 10_000;

export type RoomControllerDeps = {
  fetch: Fetch;
  /** One fresh transport per attempt, so a stale attempt can never disturb the current one. */
  createTransport: (provider: VoiceProviderName) => Promise<VoiceTransport>;
  tokenTimeoutMs?: number;
};

/** What the UI renders; a new object only when something changed (useSyncExternalStore). */
export type VoiceRoomView = {
  phase: RoomPhase;
  roomState: VoiceRoomState;
  connected: boolean;
  error: string | null;
  /** User ids the transport currently reports as speaking (self included). */
  speakingUserIds: ReadonlySet<string>;
};

type Attached = { transport: VoiceTransport; off: () => void };

function failureOf(error: unknown): AttemptFailure {
  if (error instanceof VoiceTransportError) {
    if (error.code === 'timeout') return { kind: 'timeout' };
    if (error.code === 'network') return { kind: 'network' };
  }
  return { kind: 'failed' };
}

/**
 * Runs the room machine against the world: usage sessions, the token request and one transport
 * per attempt. Framework-free; `useVoiceRoom` subscribes to it.
 */
export class RoomController {
  private machine: RoomMachineState = initialRoomState;
  private readonly transports = new Map<number, Attached>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** identity → user id of those speaking now. */
  private readonly speaking = new Map<string, string>();
  private view: VoiceRoomView = this.buildView();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: RoomControllerDeps) {}

  get state(): RoomMachineState {
    return this.machine;
  }

  getView = (): VoiceRoomView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The room to be in, or null when the room is disabled (spec §4). */
  configure(target: RoomTarget | null): void {
    this.dispatch({ type: 'configure', target });
  }

  /** Spec §5: does nothing unless the room is connected. Rejects with the browser's error. */
  async setMicrophoneEnabled(on: boolean): Promise<void> {
    if (!isRoomConnected(this.machine)) return;
    await this.transports.get(this.machine.attempt)?.transport.setMicrophoneEnabled(on);
  }

  /** An SOS countdown (decision 054): see `VoiceTransport.armMicrophone`. Connected rooms only. */
  armMicrophone(armed: boolean): void {
    if (!isRoomConnected(this.machine)) return;
    this.transports.get(this.machine.attempt)?.transport.armMicrophone?.(armed);
  }

  reportMicrophoneFailure(message: string): void {
    this.dispatch({ type: 'microphone_failed', message });
  }

  dispatch(event: RoomEvent): void {
    const { state, effects } = reduceRoom(this.machine, event);
    this.machine = state;
    for (const effect of effects) this.run(effect);
    this.publish();
  }

  private run(effect: RoomEffect): void {
    switch (effect.kind) {
      case 'startSession':
        void startUsageSession(this.deps.fetch, effect.channelId).then((result) =>
          this.dispatch(
            result.ok
              ? { type: 'session_started', attempt: effect.attempt, sessionId: result.value }
              : { type: 'attempt_failed', attempt: effect.attempt, failure: result.failure },
          ),
        );
        return;
      case 'fetchToken':
        void fetchVoiceToken(
          this.deps.fetch,
          effect.target,
          this.deps.tokenTimeoutMs ?? TOKEN_TIMEOUT_MS,
        ).then((result) =>
          this.dispatch(
            result.ok
              ? { type: 'token_received', attempt: effect.attempt, ...result.value }
              : { type: 'attempt_failed', attempt: effect.attempt, failure: result.failure },
          ),
        );
        return;
      case 'connect':
        void this.connect(effect.attempt, effect.provider, effect.url, effect.token);
        return;
      case 'disconnect':
        this.detach(effect.attempt);
        return;
      case 'endSession':
        void endUsageSession(this.deps.fetch, effect.sessionId);
        return;
      case 'scheduleRetry':
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.dispatch({ type: 'retry_due', attempt: effect.attempt });
        }, effect.delayMs);
        return;
      case 'cancelRetry':
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
        return;
    }
  }

  private async connect(
    attempt: number,
    provider: VoiceProviderName,
    url: string,
    token: string,
  ): Promise<void> {
    let transport: VoiceTransport;
    try {
      transport = await this.deps.createTransport(provider);
    } catch (error) {
      console.error('voice: no transport for provider', provider, error);
      this.dispatch({ type: 'attempt_failed', attempt, failure: { kind: 'failed' } });
      return;
    }
    if (attempt !== this.machine.attempt) return;
    this.transports.set(attempt, { transport, off: this.listen(attempt, transport) });
    try {
      await transport.connect(url, token);
      this.dispatch({ type: 'room_connected', attempt });
    } catch (error) {
      console.warn('voice: connecting to the room failed', error);
      this.dispatch({ type: 'attempt_failed', attempt, failure: failureOf(error) });
    }
  }

  private listen(attempt: number, transport: VoiceTransport): () => void {
    const offs = [
      transport.on('stateChanged', (state) =>
        this.dispatch({ type: 'transport_state', attempt, state }),
      ),
      transport.on('disconnected', ({ reason }) => {
        this.clearSpeaking();
        if (reason !== 'client') this.dispatch({ type: 'room_lost', attempt, reason });
      }),
      transport.on('speakingChanged', ({ participant, speaking }) => {
        if (speaking) this.speaking.set(participant.identity, participant.userId);
        else this.speaking.delete(participant.identity);
        this.publish();
      }),
      transport.on('participantLeft', ({ identity }) => {
        if (this.speaking.delete(identity)) this.publish();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  private detach(attempt: number): void {
    const attached = this.transports.get(attempt);
    if (!attached) return;
    this.transports.delete(attempt);
    // Unsubscribe first: our own disconnect must not read as a lost room.
    attached.off();
    this.clearSpeaking();
    attached.transport.disconnect().catch((error: unknown) => {
      console.warn('voice: disconnect failed', error);
    });
  }

  private clearSpeaking(): void {
    this.speaking.clear();
  }

  private buildView(): VoiceRoomView {
    return {
      phase: this.machine.phase,
      roomState: roomStateOf(this.machine),
      connected: isRoomConnected(this.machine),
      error: this.machine.error,
      speakingUserIds: new Set(this.speaking.values()),
    };
  }

  private publish(): void {
    const next = this.buildView();
    const prev = this.view;
    const sameSpeaking =
      next.speakingUserIds.size === prev.speakingUserIds.size &&
      [...next.speakingUserIds].every((id) => prev.speakingUserIds.has(id));
    if (
      sameSpeaking &&
      next.phase === prev.phase &&
      next.roomState === prev.roomState &&
      next.connected === prev.connected &&
      next.error === prev.error
    )
      return;
    this.view = next;
    for (const listener of [...this.listeners]) listener();
  }
}
