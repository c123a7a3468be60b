import { displayName, type User } from '../../../../protocol/user';
import { callServerMessageSchema, type CallServerMessage } from '../../../../protocol/calls';
import type { ChannelSocket } from '../realtime/channel-socket';
import {
  IDLE_VIEW,
  reduceCall,
  type CallEffect,
  type CallEvent,
  type CallInfo,
  type CallView,
  type Notice,
} from './call-state';
import type { PeerSessionOptions } from './peer-session';


/** How long a ringing call's closed room waits for the server's reason on the main socket. */
export const ROOM_GONE_WHILE_RINGING_MS = 2000;
/** The part of the `/ws` connection calls use. */
export type CallSocket = Pick<ChannelSocket, 'send' | 'on' | 'isOpen'>;

export interface PeerHandle {
  start(): Promise<void>;
  setMuted(muted: boolean): void;
  close(): void;
}

export interface CallControllerDeps {
  socket: CallSocket;
  createPeer(options: PeerSessionOptions): PeerHandle;
  iceServers(): Promise<RTCIceServer[]>;
  notify(notice: Notice): void;
  tones: { startRingtone(): () => void; playHangupTone(): void };
  /** A call ended or was missed: call history (and missed-call marks) changed. */
  historyChanged(): void;
  /** Accepting a call while online in a channel first takes the user offline there (spec §4). */
  leaveChannelVoice(): void;
  /** The text of a failure to open the call's microphone. */
  microphoneErrorMessage(error: unknown): string;
  now?: () => number;
  newId?: () => string;
}

/** The `/ws` messages calls listen to, read off the protocol's union rather than listed again. */
const CALL_MESSAGE_TYPES = callServerMessageSchema.options.map((option) => option.shape.type.value);

/**
 * Runs one tab's calls: `/ws` call messages and the user's buttons become `reduceCall` events, and
 * the effects each step returns are carried out here — messages, the peer connection, the
 * ringtone, tones and toasts. Framework-free; React subscribes to `getView`.
 */
export class CallController {
  private view: CallView = IDLE_VIEW;
  private readonly listeners = new Set<() => void>();
  private peer: PeerHandle | null = null;
  private stopRingtone: (() => void) | null = null;
  private self: string | null = null;
  /** Names this tab when accepting, so the receiver's other devices stop ringing and this one does not. */
  private readonly deviceId: string;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: CallControllerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.deviceId = this.newId();
  }

  /** Listens for `selfId`'s calls; the returned function stops and drops any call in progress. */
  attach(selfId: string): () => void {
    this.self = selfId;
    const offs = CALL_MESSAGE_TYPES.map((type) =>
      this.deps.socket.on(type, (message: CallServerMessage) =>
        this.dispatch({ type: 'server', message, now: this.now(), deviceId: this.deviceId }),
      ),
    );
    return () => {
      for (const off of offs) off();
      this.dispatch({ type: 'detach' });
      this.self = null;
    };
  }

  getView = (): CallView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Places a call; does nothing while another call is on or the socket is not open (spec §5). */
  place(user: User): void {
    if (!this.self) return;
    const callId = this.newId();
    const call: CallInfo = {
      callId,
      roomName: `call-${callId}`,
      contactId: user.id,
      contactName: displayName(user),
      contactProfileImageUrl: user.profileImageUrl,
      isInitiator: true,
    };
    this.dispatch({
      type: 'place',
      call,
      callerId: this.self,
      socketOpen: this.deps.socket.isOpen,
    });
  }

  accept(): void {
    this.dispatch({
      type: 'accept',
      now: this.now(),
      deviceId: this.deviceId,
      socketOpen: this.deps.socket.isOpen,
    });
  }

  decline = (): void => this.dispatch({ type: 'decline' });
  hangUp = (): void => this.dispatch({ type: 'hang_up' });
  minimize = (): void => this.dispatch({ type: 'minimize' });
  restore = (): void => this.dispatch({ type: 'restore' });
  toggleMute = (): void => this.dispatch({ type: 'toggle_mute' });
  pageHidden = (): void => this.dispatch({ type: 'page_hidden' });

  dispatch(event: CallEvent): void {
    const { view, effects } = reduceCall(this.view, event);
    const changed = view !== this.view;
    this.view = view;
    for (const effect of effects) this.run(effect);
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  private run(effect: CallEffect): void {
    switch (effect.kind) {
      case 'send':
        this.deps.socket.send(effect.message);
        return;
      case 'start_ringtone':
        this.stopRingtone?.();
        this.stopRingtone = this.deps.tones.startRingtone();
        return;
      case 'stop_ringtone':
        this.stopRingtone?.();
        this.stopRingtone = null;
        return;
      case 'open_peer':
        this.openPeer(effect.call, effect.muted);
        return;
      case 'mute_peer':
        this.peer?.setMuted(effect.muted);
        return;
      case 'close_peer':
        this.peer?.close();
        this.peer = null;
        return;
      case 'hangup_tone':
        this.deps.tones.playHangupTone();
        return;
      case 'notify':
        this.deps.notify(effect.notice);
        return;
      case 'history_changed':
        this.deps.historyChanged();
        return;
      case 'leave_channel_voice':
        this.deps.leaveChannelVoice();
        return;
    }
  }

  /**
   * The call's signalling room closed. While the call still rings, the server is ending it and says
   * why on the main socket (declined, not available, missed), which may arrive just after the room's
   * close on the other socket: the reason waits a moment to win, so the caller reads "Call declined"
   * rather than "Call ended". An answered call ends at once.
   */
  private roomGone(callId: string): void {
    if (this.view.state.phase !== 'outgoing') {
      this.dispatch({ type: 'room_gone', callId });
      return;
    }
    setTimeout(() => this.dispatch({ type: 'room_gone', callId }), ROOM_GONE_WHILE_RINGING_MS);
  }

  private openPeer(call: CallInfo, muted: boolean): void {
    const { callId } = call;
    this.peer?.close();
    const peer = this.deps.createPeer({
      callId,
      roomName: call.roomName,
      userId: this.self ?? '',
      isInitiator: call.isInitiator,
      iceServers: () => this.deps.iceServers(),
      onStatus: (status) => this.dispatch({ type: 'media', callId, status }),
      onRoomGone: () => this.roomGone(callId),
      onMicrophoneError: (error) =>
        this.dispatch({
          type: 'microphone_failed',
          callId,
          message: this.deps.microphoneErrorMessage(error),
        }),
    });
    this.peer = peer;
    peer.setMuted(muted);
    peer.start().catch((error: unknown) => console.error('Call audio failed to start', error));
  }
}
