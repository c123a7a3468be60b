// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../protocol/user';
import type { ClientSocketMessage, ServerSocketMessage } from '../realtime/channel-socket';
import {
  CallController,
  ROOM_GONE_WHILE_RINGING_MS,
  type CallSocket,
  type PeerHandle,
} from './call-controller';
import type { Notice } from './call-state';
import type { PeerSessionOptions } from './peer-session';

/** The `/ws` connection at the edge: records what is sent, and lets a test deliver server messages. */
class FakeSocket implements CallSocket {
  sent: ClientSocketMessage[] = [];
  isOpen = true;
  private handlers = new Map<string, Set<(m: ServerSocketMessage) => void>>();
  send(message: ClientSocketMessage): boolean {
    if (!this.isOpen) return false;
    this.sent.push(message);
    return true;
  }
  on: CallSocket['on'] = (type, handler) => {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    const stored = handler as (m: ServerSocketMessage) => void;
    set.add(stored);
    return () => set.delete(stored);
  };
  deliver(message: ServerSocketMessage): void {
    for (const handler of this.handlers.get(message.type) ?? []) handler(message);
  }
}

const bea: User = {
  id: 'bea',
  email: 'bea@x.test',
  firstName: 'Bea',
  lastName: 'Beta',
  profileImageUrl: null,
  subscriptionTier: 'free',
};

function setup() {
  const socket = new FakeSocket();
  const peers: (PeerHandle & { options: PeerSessionOptions; closed: boolean; muted: boolean })[] =
    [];
  const notices: Notice[] = [];
  const log: string[] = [];
  let ids = 0;
  const controller = new CallController({
    socket,
    createPeer: (options) => {
      const peer = {
        options,
        closed: false,
        muted: false,
        start: () => Promise.resolve(),
        setMuted(muted: boolean) {
          peer.muted = muted;
        },
        close() {
          peer.closed = true;
        },
      };
      peers.push(peer);
      log.push('peer');
      return peer;
    },
    iceServers: () => Promise.resolve([]),
    notify: (notice) => notices.push(notice),
    tones: {
      startRingtone: () => {
        log.push('ring');
        return () => log.push('ring-stop');
      },
      playHangupTone: () => log.push('hangup'),
    },
    historyChanged: () => log.push('history'),
    leaveChannelVoice: () => log.push('leave-channel'),
    microphoneErrorMessage: (error) => `mic: ${String(error)}`,
    now: () => 1000,
    newId: () => `id-${++ids}-0000`,
  });
  const detach = controller.attach('ann');
  return { socket, controller, peers, notices, log, detach };
}

describe('CallController', () => {
  it('places a call through the socket and runs the peer; hangs up with the tone', () => {
    const { socket, controller, peers, log, detach } = setup();
    controller.place(bea);
    const sent = socket.sent[0];
    expect(sent).toMatchObject({ type: 'initiate_call', callerId: 'ann', receiverId: 'bea' });
    if (sent?.type !== 'initiate_call') throw new Error('no initiate_call');
    expect(peers[0]!.options).toMatchObject({
      isInitiator: true,
      roomName: sent.roomName,
      userId: 'ann',
    });
    socket.deliver({ type: 'call_accepted', callId: sent.callId, roomName: sent.roomName });
    expect(controller.getView().state).toMatchObject({ phase: 'active', startedAt: 1000 });
    peers[0]!.options.onStatus('connected');
    expect(controller.getView().state).toMatchObject({ media: 'connected' });
    controller.toggleMute();
    expect(peers[0]!.muted).toBe(true);
    controller.hangUp();
    expect(socket.sent.at(-1)).toEqual({ type: 'call_ended', callId: sent.callId });
    expect(peers[0]!.closed).toBe(true);
    expect(log).toEqual(['peer', 'history', 'hangup']);
    detach();
  });

  it('a ringing call whose room closes just before the decline reaches this socket says "Call declined"', () => {
    vi.useFakeTimers();
    try {
      const { socket, controller, peers, notices, detach } = setup();
      controller.place(bea);
      const sent = socket.sent[0];
      if (sent?.type !== 'initiate_call') throw new Error('no initiate_call');
      // The server declines: the room's close comes first on the signalling socket...
      peers[0]!.options.onRoomGone();
      // ...and the reason a moment later on the main one.
      socket.deliver({ type: 'call_declined', callId: sent.callId, reason: 'Call declined' });
      vi.advanceTimersByTime(ROOM_GONE_WHILE_RINGING_MS);
      expect(notices.map((n) => n.title)).toEqual(['Call declined']);
      expect(controller.getView().state.phase).toBe('idle');
      detach();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a ringing call whose room closes with no reason ends by itself shortly after', () => {
    vi.useFakeTimers();
    try {
      const { controller, peers, notices, detach } = setup();
      controller.place(bea);
      peers[0]!.options.onRoomGone();
      expect(controller.getView().state.phase).toBe('outgoing');
      vi.advanceTimersByTime(ROOM_GONE_WHILE_RINGING_MS);
      expect(controller.getView().state.phase).toBe('idle');
      expect(notices.map((n) => n.title)).toEqual(['Call ended']);
      detach();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing when the socket is not open (spec §5)', () => {
    const { socket, controller, detach } = setup();
    socket.isOpen = false;
    controller.place(bea);
    expect(controller.getView().state.phase).toBe('idle');
    expect(socket.sent).toEqual([]);
    detach();
  });

  it('accepting leaves the channel voice before answering with this device id', () => {
    const { socket, controller, peers, log, detach } = setup();
    socket.deliver({
      type: 'incoming_call',
      callId: 'call-0001',
      roomName: 'room-call-0001',
      callerId: 'bea',
      callerName: 'Bea Beta',
      callerProfileImageUrl: null,
      contactId: 'bea',
      contactName: 'Bea Beta',
      contactProfileImageUrl: null,
      isInitiator: false,
    });
    controller.accept();
    expect(log).toEqual(['ring', 'leave-channel', 'ring-stop', 'peer']);
    expect(socket.sent.at(-1)).toEqual({
      type: 'call_accepted',
      callId: 'call-0001',
      roomName: 'room-call-0001',
      deviceId: 'id-1-0000',
    });
    expect(peers[0]!.options.isInitiator).toBe(false);
    detach();
  });

  it('says what went wrong with the call microphone', () => {
    const { controller, peers, notices, detach } = setup();
    controller.place(bea);
    peers[0]!.options.onMicrophoneError('NotFoundError');
    expect(notices).toEqual([
      { title: 'Microphone Error', description: 'mic: NotFoundError', variant: 'destructive' },
    ]);
    detach();
  });

  it('detaching drops a live call quietly and stops listening', () => {
    const { socket, controller, peers, log, detach } = setup();
    controller.place(bea);
    detach();
    expect(controller.getView().state.phase).toBe('idle');
    expect(peers[0]!.closed).toBe(true);
    expect(log).not.toContain('hangup');
    socket.deliver({ type: 'call_missed', callId: 'call-0001' });
    expect(controller.getView().state.phase).toBe('idle');
  });
});
