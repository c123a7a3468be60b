import {
  callServerMessageSchema,
  type CallServerMessage,
  type IncomingCall,
} from '../../../../protocol/calls';
import { displayName, type User } from '../../../../protocol/user';
import { runBeforeAcceptCall, setCallActive } from './call-active';
import {
  callReducer,
  currentCall,
  IDLE,
  isCallActive,
  type CallEvent,
  type CallInfo,
  type CallState,
  type EndCause,
} from './call-state';
import type { PeerSessionOptions } from './peer-session';

export interface CallSocket {
  send(message: { type: string } & Record<string, unknown>): boolean;
  on(type: string, handler: (message: Record<string, unknown>) => void): () => void;
}

export interface PeerHandle {
  start(): Promise<void>;
  setMuted(muted: boolean): void;
  close(): void;
}

export interface Notice {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export interface CallControllerDeps {
  socket: CallSocket;
  self: Pick<User, 'id'>;
  createPeer(options: PeerSessionOptions): PeerHandle;
  iceServers(): Promise<RTCIceServer[]>;
  notify(notice: Notice): void;
  tones: { startRingtone(): () => void; playHangupTone(): void };
  /** A call ended or was missed: call history (and missed-call marks) changed. */
  historyChanged(): void;
  now?: () => number;
  newId?: () => string;
}

export interface CallView {
  state: CallState;
  muted: boolean;
}

const SERVER_TYPES = [
  'incoming_call',
  'call_accepted',
  'call_declined',
  'call_ended',
  'call_missed',
] as const;

/**
 * Drives one tab's calls: turns `/ws` call messages and the user's buttons into reducer events, and
 * runs the side effects of each transition — the peer connection, the ringtone, the hangup tone,
 * toasts and the `callActive` store. Framework-free; React subscribes to `view`.
 */
export class CallController {
  private current: CallView = { state: IDLE, muted: false };
  private readonly listeners = new Set<() => void>();
  private peer: PeerHandle | null = null;
  private stopRingtone: (() => void) | null = null;
  /** Names this tab when accepting, so the receiver's other devices stop ringing and this one does not. */
  private readonly deviceId: string;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: CallControllerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.deviceId = this.newId();
  }

  /** Starts listening to the socket; the returned function stops and drops any call in progress. */
  attach(): () => void {
    const unsubscribers = SERVER_TYPES.map((type) =>
      this.deps.socket.on(type, (raw) => this.receive(raw)),
    );
    return () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
      const call = currentCall(this.current.state);
      if (call) this.apply({ type: 'end', callId: call.callId, cause: 'failed' }, false);
    };
  }

  get view(): CallView {
    return this.current;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CallView => this.current;

  /** Places a call; does nothing while another call is on or the socket is not open (spec §5). */
  call(user: User): void {
    if (this.current.state.phase !== 'idle' || user.id === this.deps.self.id) return;
    const callId = this.newId();
    const roomName = `call-${callId}`;
    const sent = this.deps.socket.send({
      type: 'initiate_call',
      callId,
      callerId: this.deps.self.id,
      receiverId: user.id,
      roomName,
    });
    if (!sent) return;
    const call: CallInfo = {
      callId,
      roomName,
      contactId: user.id,
      contactName: displayName(user),
      contactProfileImageUrl: user.profileImageUrl,
      isInitiator: true,
    };
    this.apply({ type: 'start', call });
  }

  async accept(): Promise<void> {
    const { state } = this.current;
    if (state.phase !== 'incoming') return;
    await runBeforeAcceptCall();
    if (this.current.state !== state) return;
    const { callId, roomName } = state.call;
    if (
      !this.deps.socket.send({ type: 'call_accepted', callId, roomName, deviceId: this.deviceId })
    )
      return;
    this.apply({ type: 'accept', now: this.now() });
  }

  decline(): void {
    const { state } = this.current;
    if (state.phase !== 'incoming') return;
    this.deps.socket.send({ type: 'call_declined', callId: state.call.callId });
    this.apply({ type: 'end', callId: state.call.callId, cause: 'declined' });
  }

  /** Ends the call, or cancels it while it still rings at the other end. */
  hangup(): void {
    const call = currentCall(this.current.state);
    if (!call || this.current.state.phase === 'incoming') return;
    this.deps.socket.send({ type: 'call_ended', callId: call.callId });
    this.apply({ type: 'end', callId: call.callId, cause: 'hangup' });
  }

  minimize(): void {
    this.apply({ type: 'minimize' });
  }

  restore(): void {
    this.apply({ type: 'restore' });
  }

  toggleMute(): void {
    const muted = !this.current.muted;
    this.peer?.setMuted(muted);
    this.publish({ ...this.current, muted });
  }

  /** The tab is going away: end a live call now rather than after the server's grace period. */
  pageHidden(): void {
    const call = currentCall(this.current.state);
    if (call && isCallActive(this.current.state))
      this.deps.socket.send({ type: 'call_ended', callId: call.callId });
  }

  private receive(raw: Record<string, unknown>): void {
    const parsed = callServerMessageSchema.safeParse(raw);
    if (!parsed.success) {
      console.error('Malformed call message ignored', raw);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: CallServerMessage): void {
    const { state } = this.current;
    const call = currentCall(state);
    switch (message.type) {
      case 'incoming_call':
        this.apply({ type: 'incoming', call: incomingInfo(message) });
        return;
      case 'call_accepted':
        this.apply({ type: 'remote_accepted', callId: message.callId, now: this.now() });
        return;
      case 'call_declined':
        if (call?.callId !== message.callId) return;
        this.apply({ type: 'end', callId: message.callId, cause: 'declined' });
        if (state.phase === 'outgoing')
          this.deps.notify({ title: message.reason ?? 'Call declined' });
        return;
      case 'call_ended': {
        if (call?.callId !== message.callId) return;
        if (
          message.reason === 'answered_elsewhere' &&
          message.deviceId === this.deviceId &&
          state.phase === 'active'
        )
          return;
        const elsewhere = state.phase === 'incoming';
        this.apply({
          type: 'end',
          callId: message.callId,
          cause: elsewhere ? 'answered_elsewhere' : 'remote_ended',
        });
        if (!elsewhere) this.deps.notify({ title: 'Call ended', description: call.contactName });
        return;
      }
      case 'call_missed':
        if (call?.callId !== message.callId) return;
        this.apply({ type: 'end', callId: message.callId, cause: 'missed' });
        if (state.phase === 'outgoing')
          this.deps.notify({ title: 'No answer', description: call.contactName });
        else this.deps.notify({ title: 'Missed call', description: `From ${call.contactName}` });
        return;
    }
  }

  private apply(event: CallEvent, audible = true): void {
    const before = this.current.state;
    const after = callReducer(before, event);
    if (after === before) return;
    this.effects(before, after, event.type === 'end' ? event.cause : null, audible);
    this.publish({ state: after, muted: after.phase === 'idle' ? false : this.current.muted });
  }

  private effects(
    before: CallState,
    after: CallState,
    cause: EndCause | null,
    audible: boolean,
  ): void {
    if (after.phase === 'incoming' && before.phase !== 'incoming')
      this.stopRingtone = this.deps.tones.startRingtone();
    if (before.phase === 'incoming' && after.phase !== 'incoming') {
      this.stopRingtone?.();
      this.stopRingtone = null;
    }
    const live = isCallActive(after);
    if (live && !this.peer) this.openPeer(currentCall(after)!);
    if (!live && this.peer) {
      this.peer.close();
      this.peer = null;
    }
    if (isCallActive(before) && !live && audible) this.deps.tones.playHangupTone();
    if (cause && cause !== 'answered_elsewhere') this.deps.historyChanged();
    setCallActive(live);
  }

  private openPeer(call: CallInfo): void {
    const { callId } = call;
    const peer = this.deps.createPeer({
      callId,
      roomName: call.roomName,
      userId: this.deps.self.id,
      isInitiator: call.isInitiator,
      iceServers: () => this.deps.iceServers(),
      onStatus: (status) => this.apply({ type: 'media', callId, status }),
      onRoomGone: () => {
        if (currentCall(this.current.state)?.callId !== callId) return;
        this.apply({ type: 'end', callId, cause: 'failed' });
        this.deps.notify({ title: 'Call ended', description: call.contactName });
      },
      onMicrophoneError: () =>
        this.deps.notify({
          title: 'Microphone Error',
          description: 'Microphone access denied - please allow microphone permissions.',
          variant: 'destructive',
        }),
    });
    this.peer = peer;
    peer.setMuted(this.current.muted);
    peer.start().catch((error: unknown) => console.error('Call audio failed to start', error));
  }

  private publish(next: CallView): void {
    this.current = next;
    for (const listener of [...this.listeners]) listener();
  }
}

function incomingInfo(message: IncomingCall): CallInfo {
  return {
    callId: message.callId,
    roomName: message.roomName,
    contactId: message.callerId,
    contactName: message.callerName,
    contactProfileImageUrl: message.callerProfileImageUrl,
    isInitiator: false,
  };
}
