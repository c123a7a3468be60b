import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PEER_RECONNECT_DELAY_MS } from '../../../../protocol/calls';
import { FakeWebSocket } from '../../testing/fake-websocket';
import { PeerSession } from './peer-session';

/** The browser's peer connection at the edge: records what the session asks of it, in order. */
class FakePeerConnection {
  static last: FakePeerConnection | undefined;
  readonly calls: string[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  signalingState: RTCSignalingState = 'stable';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  onconnectionstatechange: (() => void) | null = null;
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  configuration: RTCConfiguration;

  constructor(configuration: RTCConfiguration) {
    this.configuration = configuration;
    FakePeerConnection.last = this;
  }
  getConfiguration(): RTCConfiguration {
    return this.configuration;
  }
  setConfiguration(configuration: RTCConfiguration): void {
    this.calls.push(`setConfiguration ${JSON.stringify(configuration.iceServers)}`);
    this.configuration = configuration;
  }
  addTransceiver(): void {}
  addTrack(): void {}
  createOffer(options?: RTCOfferOptions): Promise<RTCSessionDescriptionInit> {
    this.calls.push(`createOffer iceRestart=${String(options?.iceRestart ?? false)}`);
    return Promise.resolve({ type: 'offer', sdp: 'v=0 offer' });
  }
  setLocalDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.localDescription = description;
    return Promise.resolve();
  }
  close(): void {}
}

const turn = (password: string): RTCIceServer[] => [
  { urls: 'turn:turn.example:3478', username: `1700000000:ann`, credential: password },
];

describe('a call that drops gets fresh TURN credentials before it restarts ICE', () => {
  let sockets: FakeWebSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal(
      'WebSocket',
      class extends FakeWebSocket {
        constructor() {
          super();
          sockets.push(this);
        }
      },
    );
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => Promise.reject(new Error('no microphone here')) },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it.each([
    ['the caller', true],
    ['the callee', false],
  ])('%s restarts with ICE servers fetched after the drop', async (_, isInitiator) => {
    const iceServers = vi
      .fn()
      .mockResolvedValueOnce(turn('first-hour'))
      .mockResolvedValue(turn('second-hour'));
    const session = new PeerSession({
      callId: 'call-1',
      roomName: 'room-1',
      userId: 'ann',
      isInitiator,
      iceServers,
      onStatus: () => undefined,
      onRoomGone: () => undefined,
      onMicrophoneError: () => undefined,
    });
    await session.start();
    const pc = FakePeerConnection.last!;
    expect(pc.configuration.iceServers).toEqual(turn('first-hour'));
    sockets[0]!.serverOpens();

    // The relay allocation ended with its credential: the connection fails.
    pc.connectionState = 'failed';
    pc.onconnectionstatechange?.();
    await vi.advanceTimersByTimeAsync(PEER_RECONNECT_DELAY_MS);

    expect(iceServers).toHaveBeenCalledTimes(2);
    expect(pc.configuration.iceServers).toEqual(turn('second-hour'));
    expect(pc.calls).toEqual([
      `setConfiguration ${JSON.stringify(turn('second-hour'))}`,
      ...(isInitiator ? ['createOffer iceRestart=true'] : []),
    ]);
    session.close();
  });

  it.each([
    ['the caller', true],
    ['the callee', false],
  ])('%s restarts ICE at once when its own network changes', async (_, isInitiator) => {
    let networkChanged: (change: 'online' | 'offline' | 'changed') => void = () => undefined;
    const session = new PeerSession({
      callId: 'call-1',
      roomName: 'room-1',
      userId: 'ann',
      isInitiator,
      iceServers: () => Promise.resolve([]),
      onStatus: () => undefined,
      onRoomGone: () => undefined,
      onMicrophoneError: () => undefined,
      watchNetwork: (listener) => {
        networkChanged = listener;
        return () => undefined;
      },
    });
    await session.start();
    const pc = FakePeerConnection.last!;
    sockets[0]!.serverOpens();
    pc.remoteDescription = { type: 'answer', sdp: 'v=0 answer' };
    pc.connectionState = 'connected';

    networkChanged('offline');
    await vi.advanceTimersByTimeAsync(0);
    expect(pc.calls.filter((call) => call.startsWith('createOffer'))).toEqual([]);
    networkChanged('online');
    await vi.advanceTimersByTimeAsync(0);
    // No 3 s wait, and the callee offers too: it is the side whose addresses are gone.
    expect(pc.calls.filter((call) => call.startsWith('createOffer'))).toEqual([
      'createOffer iceRestart=true',
    ]);
    session.close();
  });
});
