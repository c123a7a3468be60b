import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../protocol/user';
import { isCallActiveNow, setBeforeAcceptCall } from './call-active';
import { CallController, type CallSocket, type Notice, type PeerHandle } from './call-controller';
import type { PeerSessionOptions } from './peer-session';

/** The `/ws` connection at the edge: records what is sent, and lets a test deliver server messages. */
class FakeSocket implements CallSocket {
  sent: Record<string, unknown>[] = [];
  open = true;
  private handlers = new Map<string, Set<(m: Record<string, unknown>) => void>>();
  send(message: { type: string } & Record<string, unknown>): boolean {
    if (!this.open) return false;
    this.sent.push(message);
    return true;
  }
  on(type: string, handler: (m: Record<string, unknown>) => void): () => void {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    set.add(handler);
    return () => set.delete(handler);
  }
  deliver(message: { type: string } & Record<string, unknown>): void {
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
  const sounds: string[] = [];
  let ids = 0;
  const controller = new CallController({
    socket,
    self: { id: 'ann' },
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
      return peer;
    },
    iceServers: () => Promise.resolve([]),
    notify: (notice) => notices.push(notice),
    tones: {
      startRingtone: () => {
        sounds.push('ring');
        return () => sounds.push('ring-stop');
      },
      playHangupTone: () => sounds.push('hangup'),
    },
    historyChanged: () => sounds.push('history'),
    now: () => 1000,
    newId: () => `id-${++ids}-0000`,
  });
  const detach = controller.attach();
  return { socket, controller, peers, notices, sounds, detach };
}

const incoming = (callId = 'call-0001') => ({
  type: 'incoming_call',
  callId,
  roomName: `room-${callId}`,
  callerId: 'bea',
  callerName: 'Bea Beta',
  callerProfileImageUrl: null,
  contactId: 'bea',
  contactName: 'Bea Beta',
  contactProfileImageUrl: null,
  isInitiator: false,
});

afterEach(() => setBeforeAcceptCall(null));

describe('CallController', () => {
  it('places a call: initiate_call, ringing with a peer in the room, active on call_accepted, hangup', () => {
    const { socket, controller, peers, sounds, detach } = setup();
    controller.call(bea);
    const [sent] = socket.sent;
    expect(sent).toMatchObject({ type: 'initiate_call', callerId: 'ann', receiverId: 'bea' });
    expect(controller.view.state).toMatchObject({
      phase: 'outgoing',
      call: { contactName: 'Bea Beta', isInitiator: true },
    });
    expect(isCallActiveNow()).toBe(true);
    expect(peers[0]!.options).toMatchObject({ isInitiator: true, roomName: sent!.roomName });

    socket.deliver({ type: 'call_accepted', callId: sent!.callId, roomName: sent!.roomName });
    expect(controller.view.state).toMatchObject({ phase: 'active', startedAt: 1000 });
    peers[0]!.options.onStatus('connected');
    expect(controller.view.state).toMatchObject({ media: 'connected' });

    controller.toggleMute();
    expect(peers[0]!.muted).toBe(true);
    controller.hangup();
    expect(socket.sent.at(-1)).toEqual({ type: 'call_ended', callId: sent!.callId });
    expect(controller.view).toEqual({ state: { phase: 'idle' }, muted: false });
    expect(peers[0]!.closed).toBe(true);
    expect(sounds).toContain('hangup');
    expect(isCallActiveNow()).toBe(false);
    detach();
  });

  it('does nothing when the socket is not open (spec §5)', () => {
    const { socket, controller, detach } = setup();
    socket.open = false;
    controller.call(bea);
    expect(controller.view.state.phase).toBe('idle');
    detach();
  });

  it('rings on incoming_call; accepting runs beforeAcceptCall first, then sends call_accepted with its device id', async () => {
    const { socket, controller, peers, sounds, detach } = setup();
    const order: string[] = [];
    setBeforeAcceptCall(() => {
      order.push('before');
    });
    socket.deliver(incoming());
    expect(controller.view.state.phase).toBe('incoming');
    expect(sounds).toEqual(['ring']);
    expect(isCallActiveNow()).toBe(false);
    await controller.accept();
    order.push(String(socket.sent.at(-1)?.type));
    expect(order).toEqual(['before', 'call_accepted']);
    expect(socket.sent.at(-1)).toMatchObject({
      callId: 'call-0001',
      roomName: 'room-call-0001',
      deviceId: 'id-1-0000',
    });
    expect(sounds).toEqual(['ring', 'ring-stop']);
    expect(peers[0]!.options.isInitiator).toBe(false);

    // The server's "answered elsewhere" names this device: the call stays.
    socket.deliver({
      type: 'call_ended',
      callId: 'call-0001',
      reason: 'answered_elsewhere',
      deviceId: 'id-1-0000',
    });
    expect(controller.view.state.phase).toBe('active');
    socket.deliver({ type: 'call_ended', callId: 'call-0001', reason: 'hangup' });
    expect(controller.view.state.phase).toBe('idle');
    detach();
  });

  it('stops ringing silently when another device answers', () => {
    const { socket, controller, notices, detach } = setup();
    socket.deliver(incoming());
    socket.deliver({
      type: 'call_ended',
      callId: 'call-0001',
      reason: 'answered_elsewhere',
      deviceId: 'other',
    });
    expect(controller.view.state.phase).toBe('idle');
    expect(notices).toEqual([]);
    detach();
  });

  it('toasts the decline reason, "No answer" to the caller and "Missed call" to the receiver', () => {
    const { socket, controller, notices, detach } = setup();
    controller.call(bea);
    socket.deliver({
      type: 'call_declined',
      callId: socket.sent[0]!.callId,
      reason: 'User is busy',
    });
    expect(notices.at(-1)).toEqual({ title: 'User is busy' });
    controller.call(bea);
    socket.deliver({ type: 'call_missed', callId: socket.sent[1]!.callId });
    expect(notices.at(-1)).toMatchObject({ title: 'No answer' });
    socket.deliver(incoming('call-0002'));
    socket.deliver({ type: 'call_missed', callId: 'call-0002' });
    expect(notices.at(-1)).toEqual({ title: 'Missed call', description: 'From Bea Beta' });
    expect(controller.view.state.phase).toBe('idle');
    detach();
  });

  it('declining sends call_declined; minimize and restore; malformed messages are ignored', () => {
    const { socket, controller, detach } = setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    socket.deliver({ type: 'incoming_call', callId: 'x' });
    expect(controller.view.state.phase).toBe('idle');
    socket.deliver(incoming());
    controller.decline();
    expect(socket.sent.at(-1)).toEqual({ type: 'call_declined', callId: 'call-0001' });
    controller.call(bea);
    controller.minimize();
    expect(controller.view.state).toMatchObject({ minimized: true });
    controller.restore();
    expect(controller.view.state).toMatchObject({ minimized: false });
    detach();
    expect(controller.view.state.phase).toBe('idle');
  });
});
