import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { EmbeddedSfuTransport } from './embedded-sfu-transport';

/** The captured microphone: what the transport switches and whether it was let go. */
class FakeTrack {
  readonly kind = 'audio';
  enabled = true;
  readyState: MediaStreamTrackState = 'live';
  stop(): void {
    this.readyState = 'ended';
  }
}

/** The publish slot's sender. As in a browser, its track changes only once replaceTrack resolves. */
class FakeSender {
  track: FakeTrack | null = null;
  readonly replaced: (FakeTrack | null)[] = [];
  replaceTrack(track: FakeTrack | null): Promise<void> {
    this.replaced.push(track);
    return new Promise((resolve) =>
      setTimeout(() => {
        this.track = track;
        resolve();
      }, 5),
    );
  }
}

/** The browser's peer connection at the edge: every offer has the publish slot as m-line 0. */
class FakePeerConnection {
  static last: FakePeerConnection | undefined;
  connectionState: RTCPeerConnectionState = 'new';
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  readonly slot = { mid: null as string | null, direction: 'recvonly', sender: new FakeSender() };

  constructor() {
    FakePeerConnection.last = this;
  }
  setRemoteDescription(): Promise<void> {
    this.slot.mid = '0';
    return Promise.resolve();
  }
  getTransceivers(): (typeof this.slot)[] {
    return this.slot.mid === null ? [] : [this.slot];
  }
  createAnswer(): Promise<RTCSessionDescriptionInit> {
    return Promise.resolve({ type: 'answer', sdp: 'v=0 answer' });
  }
  setLocalDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.localDescription = description;
    return Promise.resolve();
  }
  close(): void {
    this.connectionState = 'closed';
  }
}

const joined = {
  type: 'joined',
  version: 1,
  sessionId: 'session-1',
  roomName: 'channel-1',
  self: { identity: 'ann-1', userId: 'ann', name: 'Ann' },
  participants: [],
  canPublish: true,
  iceServers: [],
  resumed: false,
};
let negotiationId = 0;
const offer = () => ({
  type: 'offer',
  negotiationId: negotiationId++,
  sdp: 'v=0 offer',
  publishMid: '0',
  tracks: [],
});

interface Session {
  transport: EmbeddedSfuTransport;
  socket: FakeWebSocket;
  pc: FakePeerConnection;
  microphone: FakeTrack;
  /** Answers the server got so far. */
  answers: () => number;
  /** Everything in flight has settled: answers sent, the slot's track set. */
  settled: () => Promise<void>;
}

/** A transport that joined a room and has its socket and peer connection, before any offer. */
async function joinedSession(): Promise<Session> {
  const microphone = new FakeTrack();
  const sockets: FakeWebSocket[] = [];
  const transport = new EmbeddedSfuTransport({
    getUserMedia: () =>
      Promise.resolve({ getAudioTracks: () => [microphone] } as unknown as MediaStream),
    createWebSocket: () => {
      const socket = new FakeWebSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    watchNetwork: () => () => undefined,
  });
  void transport.connect('ws://sfu.test/rtc', 'token').catch(() => undefined);
  await vi.waitFor(() => expect(sockets).toHaveLength(1));
  const socket = sockets[0]!;
  socket.serverOpens();
  socket.serverSends(joined);
  const pc = FakePeerConnection.last!;
  const answers = () => socket.sent.filter((m) => m.type === 'answer').length;
  return {
    transport,
    socket,
    pc,
    microphone,
    answers,
    settled: () => new Promise((resolve) => setTimeout(resolve, 50)),
  };
}

/** Joined, the first offer answered and the peer connection up. */
async function connectedSession(): Promise<Session> {
  const session = await joinedSession();
  session.socket.serverSends(offer());
  await vi.waitFor(() => expect(session.answers()).toBe(1));
  session.pc.connectionState = 'connected';
  await vi.waitFor(() => expect(session.transport.state).toBe('connected'));
  return session;
}

describe('the built-in SFU sends no RTP between talks: the publish slot holds the microphone only while it is on', () => {
  beforeEach(() => {
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('holds no track while off and the live microphone while on, captured once and never stopped between talks', async () => {
    const { transport, pc, microphone, settled } = await connectedSession();
    const sender = pc.slot.sender;
    expect(pc.slot.direction).toBe('sendonly');
    expect(sender.track).toBeNull();
    expect(microphone.enabled).toBe(false);

    await transport.setMicrophoneEnabled(true);
    expect(sender.track).toBe(microphone);
    expect(microphone.enabled).toBe(true);

    await transport.setMicrophoneEnabled(false);
    expect(sender.track).toBeNull();
    expect(microphone.enabled).toBe(false);
    expect(microphone.readyState).toBe('live');

    await transport.setMicrophoneEnabled(true);
    await settled();
    expect(sender.track).toBe(microphone);
    expect(sender.replaced).toEqual([microphone, null, microphone]);

    await transport.disconnect();
    expect(microphone.readyState).toBe('ended');
  });

  it('ends a talk on silence: the disabled microphone leaves the slot a few frames later', async () => {
    const { transport, pc, microphone, settled } = await connectedSession();
    await transport.setMicrophoneEnabled(true);
    const off = transport.setMicrophoneEnabled(false);
    await settled();
    expect(microphone.enabled).toBe(false);
    expect(pc.slot.sender.track).toBe(microphone);
    await off;
    expect(pc.slot.sender.track).toBeNull();

    // On again within those frames: the track never left, nothing to put back.
    await transport.setMicrophoneEnabled(true);
    const shortOff = transport.setMicrophoneEnabled(false);
    await settled();
    await transport.setMicrophoneEnabled(true);
    await shortOff;
    expect(pc.slot.sender.track).toBe(microphone);
    expect(microphone.enabled).toBe(true);
    expect(pc.slot.sender.replaced).toEqual([microphone, null, microphone]);
  });

  it('leaves the slot empty when the offer arrives while the microphone is off, also after a talk', async () => {
    const session = await joinedSession();
    const { transport, socket, pc, microphone, answers, settled } = session;
    socket.serverSends(offer());
    await vi.waitFor(() => expect(answers()).toBe(1));
    await settled();
    expect(pc.slot.sender.track).toBeNull();
    expect(pc.slot.sender.replaced).toEqual([]);

    pc.connectionState = 'connected';
    await vi.waitFor(() => expect(transport.state).toBe('connected'));
    await transport.setMicrophoneEnabled(true);
    await transport.setMicrophoneEnabled(false);
    // Another offer (an ICE restart, a talker joining) while off: still nothing to send.
    socket.serverSends(offer());
    await vi.waitFor(() => expect(answers()).toBe(2));
    await settled();
    expect(pc.slot.sender.track).toBeNull();
    expect(microphone.enabled).toBe(false);
  });

  it('sends the microphone when the offer arrives while it is on (a rejoin mid-talk)', async () => {
    const { transport, socket, pc, microphone, answers, settled } = await joinedSession();
    // Nothing negotiated yet: switching on only prepares the microphone.
    await transport.setMicrophoneEnabled(true);
    expect(pc.slot.sender.track).toBeNull();
    socket.serverSends(offer());
    await vi.waitFor(() => expect(answers()).toBe(1));
    await settled();
    expect(pc.slot.sender.track).toBe(microphone);
    expect(microphone.enabled).toBe(true);
    // A later offer while on (an ICE restart) keeps it.
    socket.serverSends(offer());
    await vi.waitFor(() => expect(answers()).toBe(2));
    await settled();
    expect(pc.slot.sender.track).toBe(microphone);
  });

  it('ends as the last switch said when the microphone is switched quickly, without waiting between', async () => {
    const { transport, pc, microphone, settled } = await connectedSession();
    await Promise.all([
      transport.setMicrophoneEnabled(true),
      transport.setMicrophoneEnabled(false),
      transport.setMicrophoneEnabled(true),
    ]);
    await settled();
    expect(pc.slot.sender.track).toBe(microphone);
    expect(microphone.enabled).toBe(true);

    await Promise.all([
      transport.setMicrophoneEnabled(false),
      transport.setMicrophoneEnabled(true),
      transport.setMicrophoneEnabled(false),
    ]);
    await settled();
    expect(pc.slot.sender.track).toBeNull();
    expect(microphone.enabled).toBe(false);
    expect(microphone.readyState).toBe('live');
  });

  it('follows a switch made while the answer is setting the slot', async () => {
    const { transport, socket, pc, microphone, answers, settled } = await joinedSession();
    await transport.setMicrophoneEnabled(true);
    socket.serverSends(offer());
    // Off while the answer is still putting the microphone in the slot.
    await transport.setMicrophoneEnabled(false);
    await vi.waitFor(() => expect(answers()).toBe(1));
    await settled();
    expect(pc.slot.sender.track).toBeNull();
    expect(microphone.enabled).toBe(false);
  });

  it('lets the microphone go when disconnected after the connection ended by itself', async () => {
    const { transport, socket, microphone } = await connectedSession();
    await transport.setMicrophoneEnabled(true);
    const ended: string[] = [];
    transport.on('disconnected', ({ reason }) => ended.push(reason));
    socket.serverCloses(4003); // kicked
    await vi.waitFor(() => expect(ended).toEqual(['kicked']));
    expect(microphone.readyState).toBe('live');
    await transport.disconnect();
    expect(microphone.readyState).toBe('ended');
    expect(ended).toEqual(['kicked']);
  });

  it('captures once when switched on again while the browser is still asking for the microphone', async () => {
    let resolveCapture: (stream: MediaStream) => void = () => undefined;
    const microphone = new FakeTrack();
    const getUserMedia = vi.fn(
      () =>
        new Promise<MediaStream>((resolve) => {
          resolveCapture = resolve;
        }),
    );
    const socket = new FakeWebSocket();
    const transport = new EmbeddedSfuTransport({
      getUserMedia,
      createWebSocket: () => socket as unknown as WebSocket,
      watchNetwork: () => () => undefined,
    });
    void transport.connect('ws://sfu.test/rtc', 'token').catch(() => undefined);
    const on = transport.setMicrophoneEnabled(true);
    const off = transport.setMicrophoneEnabled(false);
    const onAgain = transport.setMicrophoneEnabled(true);
    resolveCapture({ getAudioTracks: () => [microphone] } as unknown as MediaStream);
    await Promise.all([on, off, onAgain]);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(microphone.enabled).toBe(true);
    await transport.disconnect();
    expect(microphone.readyState).toBe('ended');
  });
});
