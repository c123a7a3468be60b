import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchRemoteAudio, type AudioPolicy } from '../audio-policy';
import type { RemoteAudioOutput } from '../remote-audio-gain';
import type { LiveKitRoomHandlers, LiveKitRoomOptions, LiveKitRoomPort } from './livekit-port';
import { LiveKitTransport, PUBLISH_RIGHT_WAIT_MS, userIdFromIdentity } from './livekit-transport';
import { VoiceTransportError } from './voice-transport';

/** A stand-in for the adapter over livekit-client's Room. */
class FakeRoom implements LiveKitRoomPort {
  localParticipant = { identity: 'me-1-a', name: 'Me' };
  remoteParticipants = [{ identity: 'u2-1-b', name: 'Bo' }];
  handlers: LiveKitRoomHandlers | undefined;
  publish = true;
  mic: boolean[] = [];
  connectResult: Promise<void> = Promise.resolve();
  disconnected = 0;
  constructor(readonly options: LiveKitRoomOptions) {}
  connect() {
    return this.connectResult;
  }
  disconnect() {
    this.disconnected++;
    return Promise.resolve();
  }
  /** Captures made ahead of the right: +1 prepared, -1 released, 0 published with the right. */
  prepared = 0;
  setMicrophoneEnabled(on: boolean) {
    this.mic.push(on);
    if (on) this.prepared = 0;
    return Promise.resolve();
  }
  prepareMicrophone() {
    this.prepared = 1;
  }
  releasePreparedMicrophone() {
    if (this.prepared === 1) this.prepared = -1;
  }
  /** Muted publications of the microphone (an SOS countdown). */
  mutedPublications = 0;
  publishMutedMicrophone() {
    this.mutedPublications++;
    this.prepared = 0;
    return Promise.resolve();
  }
  canPublish() {
    return this.publish;
  }
  subscribe(handlers: LiveKitRoomHandlers) {
    this.handlers = handlers;
    return () => (this.handlers = undefined);
  }
}

function setup(hang = false) {
  const rooms: FakeRoom[] = [];
  const transport = new LiveKitTransport((options) => {
    const room = new FakeRoom(options);
    if (hang) room.connectResult = new Promise(() => undefined);
    rooms.push(room);
    return room;
  });
  return { transport, rooms };
}

/** Asks for the microphone without the publish right, which never comes: refused after the wait. */
async function refusedWithoutTheRight(transport: LiveKitTransport): Promise<void> {
  vi.useFakeTimers();
  const refused = expect(transport.setMicrophoneEnabled(true)).rejects.toMatchObject({
    code: 'forbidden',
  });
  await vi.advanceTimersByTimeAsync(PUBLISH_RIGHT_WAIT_MS);
  await refused;
  vi.useRealTimers();
}

beforeEach(() => {
  const container = document.createElement('div');
  container.id = 'remote-audio';
  document.body.append(container);
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('LiveKitTransport', () => {
  it('recovers user ids from identities', () => {
    expect(userIdFromIdentity('abc-1700000000000-x1')).toBe('abc');
    expect(userIdFromIdentity('a-b-c-1700000000000-x1')).toBe('a-b-c');
  });

  it('connects with the spec §9 room options and reports its states', async () => {
    const { transport, rooms } = setup();
    const states: string[] = [];
    transport.on('stateChanged', (s) => states.push(s));
    await transport.connect('wss://lk', 'tok');
    expect(rooms[0]?.options).toMatchObject({ adaptiveStream: true, dynacast: true });
    rooms[0]?.handlers?.connectionStateChanged('reconnecting');
    expect(states).toEqual(['connecting', 'connected', 'reconnecting']);
    expect(transport.remoteParticipants[0]?.userId).toBe('u2');
  });

  it('times out after 15 s', async () => {
    vi.useFakeTimers();
    const { transport } = setup(true);
    const connecting = transport.connect('wss://lk', 'tok');
    const settled = connecting.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(15_000);
    const error = await settled;
    expect(error).toBeInstanceOf(VoiceTransportError);
    expect((error as VoiceTransportError).code).toBe('timeout');
    expect(transport.state).toBe('disconnected');
  });

  it('plays remote audio tagged by user, never its own', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    const track = {} as MediaStreamTrack;
    vi.stubGlobal('MediaStream', class {});
    rooms[0]?.handlers?.audioTrackSubscribed(track, 'TR_1', { identity: 'u2-1-b' });
    rooms[0]?.handlers?.audioTrackSubscribed(track, 'TR_2', { identity: 'me-1-a' });
    const elements = document.querySelectorAll('#remote-audio audio');
    expect(elements).toHaveLength(1);
    expect((elements[0] as HTMLAudioElement).dataset.userId).toBe('u2');
    rooms[0]?.handlers?.audioTrackUnsubscribed('TR_1', { identity: 'u2-1-b' });
    expect(document.querySelectorAll('#remote-audio audio')).toHaveLength(0);
    vi.unstubAllGlobals();
  });

  it("plays a LiveKit member at the listener's volume for them", async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    vi.stubGlobal('MediaStream', class {});
    const gains = new Map<string | undefined, number>();
    const output: RemoteAudioOutput = {
      setGain: (element, gain) => gains.set(element.dataset.userId, gain),
      keepOnly: () => undefined,
    };
    const policy = {
      channelMuted: false,
      hiddenUserIds: new Set<string>(),
      memberVolumes: { u2: 30 },
    };
    const watcher = watchRemoteAudio(() => policy, document, output);
    rooms[0]?.handlers?.audioTrackSubscribed({} as MediaStreamTrack, 'TR_1', {
      identity: 'u2-1-b',
    });
    await Promise.resolve();
    expect(gains.get('u2')).toBe(0.3);
    watcher.stop();
    vi.unstubAllGlobals();
  });

  it("plays a LiveKit member's SOS at full volume over Mute Channel and a low volume", async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    vi.stubGlobal('MediaStream', class {});
    const gains = new Map<string | undefined, number>();
    const output: RemoteAudioOutput = {
      setGain: (element, gain) => gains.set(element.dataset.userId, gain),
      keepOnly: () => undefined,
    };
    let policy: AudioPolicy = {
      channelMuted: true,
      hiddenUserIds: new Set<string>(),
      memberVolumes: { u2: 30 },
      sosUserIds: new Set(['u2']),
    };
    const watcher = watchRemoteAudio(() => policy, document, output);
    rooms[0]?.handlers?.audioTrackSubscribed({} as MediaStreamTrack, 'TR_1', {
      identity: 'u2-1-b',
    });
    await Promise.resolve();
    expect(gains.get('u2')).toBe(1);
    // The SOS over: Mute Channel applies again.
    policy = { ...policy, sosUserIds: new Set() };
    watcher.reapply();
    expect(gains.get('u2')).toBe(0);
    watcher.stop();
    vi.unstubAllGlobals();
  });

  it('turns active speakers into speaking changes', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    const changes: [string, boolean][] = [];
    transport.on('speakingChanged', (c) => changes.push([c.participant.userId, c.speaking]));
    rooms[0]?.handlers?.activeSpeakersChanged([{ identity: 'u2-1-b' }]);
    rooms[0]?.handlers?.activeSpeakersChanged([]);
    expect(changes).toEqual([
      ['u2', true],
      ['u2', false],
    ]);
  });

  it('refuses the microphone without the publish right, and toggles it otherwise', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    await transport.setMicrophoneEnabled(true);
    expect(rooms[0]?.mic).toEqual([true]);
    rooms[0]!.publish = false;
    await refusedWithoutTheRight(transport);
  });

  it('a walkie-talkie grant that reaches the page before its publish right waits for the right', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    rooms[0]!.publish = false;
    const on = transport.setMicrophoneEnabled(true);
    rooms[0]!.publish = true;
    rooms[0]?.handlers?.publishPermissionChanged(true);
    await on;
    expect(rooms[0]?.mic).toEqual([true]);
    expect(transport.isMicrophoneEnabled).toBe(true);
  });

  it('captures the microphone while its right is on the way, and publishes that capture with it', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    rooms[0]!.publish = false;
    const on = transport.setMicrophoneEnabled(true);
    // Asked before the right came (an SOS, a floor grant): the capture starts at once.
    expect(rooms[0]?.prepared).toBe(1);
    rooms[0]!.publish = true;
    rooms[0]?.handlers?.publishPermissionChanged(true);
    await on;
    expect(rooms[0]?.mic).toEqual([true]);
    expect(rooms[0]?.prepared).toBe(0);
  });

  it('stops that capture when the right does not come, or the user lets go first', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    rooms[0]!.publish = false;
    await refusedWithoutTheRight(transport);
    expect(rooms[0]?.prepared).toBe(-1);

    const on = transport.setMicrophoneEnabled(true);
    expect(rooms[0]?.prepared).toBe(1);
    await transport.setMicrophoneEnabled(false);
    await on;
    expect(rooms[0]?.prepared).toBe(-1);
    expect(rooms[0]?.mic).toEqual([false]);
  });

  it('armed for an SOS, publishes the microphone muted as soon as the right comes, and opening it is then a toggle', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    const room = rooms[0]!;
    room.publish = false;
    transport.armMicrophone(true);
    // No right yet: nothing is published, the capture starts.
    expect(room.mutedPublications).toBe(0);
    expect(room.prepared).toBe(1);
    room.publish = true;
    room.handlers?.publishPermissionChanged(true);
    expect(room.mutedPublications).toBe(1);
    // The SOS: the microphone is turned on, on the publication already there.
    await transport.setMicrophoneEnabled(true);
    expect(room.mic).toEqual([true]);
    expect(room.mutedPublications).toBe(1);
  });

  it('armed while it may publish already, publishes muted at once; disarmed before the right, lets the capture go', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    transport.armMicrophone(true);
    expect(rooms[0]?.mutedPublications).toBe(1);

    await transport.disconnect();
    await transport.connect('wss://lk', 'tok');
    const room = rooms[1]!;
    room.publish = false;
    transport.armMicrophone(true);
    transport.armMicrophone(false);
    expect(room.prepared).toBe(-1);
    // A right that comes after Cancel publishes nothing.
    room.publish = true;
    room.handlers?.publishPermissionChanged(true);
    expect(room.mutedPublications).toBe(0);
    expect(room.mic).toEqual([]);
  });

  it('publishes the microphone again when an admin unmute restores the right, if the user wants it', async () => {
    const { transport, rooms } = setup();
    const room = () => rooms[0]!;
    const muted: boolean[] = [];
    transport.on('participantMuted', ({ participant, muted: m }) => {
      if (participant.userId === 'me') muted.push(m);
    });
    await transport.connect('wss://lk', 'tok');
    await transport.setMicrophoneEnabled(true);
    // Admin mute: LiveKit revokes the right and unpublishes the microphone by itself.
    room().publish = false;
    room().handlers?.publishPermissionChanged(false);
    expect(transport.isMicrophoneEnabled).toBe(false);
    room().publish = true;
    room().handlers?.publishPermissionChanged(true);
    expect(room().mic).toEqual([true, true]);
    expect(transport.isMicrophoneEnabled).toBe(true);
    expect(muted).toEqual([true, false]);

    // Self-muted during the admin mute: the unmute leaves the microphone off.
    room().publish = false;
    room().handlers?.publishPermissionChanged(false);
    await transport.setMicrophoneEnabled(false);
    room().publish = true;
    room().handlers?.publishPermissionChanged(true);
    expect(room().mic).toEqual([true, true, false]);
    expect(transport.isMicrophoneEnabled).toBe(false);
  });

  it('an admin-muted user who asks for the microphone gets it once unmuted', async () => {
    const { transport, rooms } = setup();
    await transport.connect('wss://lk', 'tok');
    rooms[0]!.publish = false;
    await refusedWithoutTheRight(transport);
    expect(rooms[0]?.mic).toEqual([]);
    rooms[0]!.publish = true;
    rooms[0]?.handlers?.publishPermissionChanged(true);
    expect(rooms[0]?.mic).toEqual([true]);
  });

  it('reports a lost room once, and our own disconnect as client', async () => {
    const { transport, rooms } = setup();
    const reasons: string[] = [];
    transport.on('disconnected', ({ reason }) => reasons.push(reason));
    await transport.connect('wss://lk', 'tok');
    rooms[0]?.handlers?.disconnected('connection_lost');
    expect(transport.state).toBe('disconnected');
    await transport.connect('wss://lk', 'tok');
    await transport.disconnect();
    expect(reasons).toEqual(['connection_lost', 'client']);
  });
});
