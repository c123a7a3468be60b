// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { PresenceStore } from '../presence/presence-store';
import { microphoneErrorMessage } from './microphone-error';
import { microphoneOverride } from './microphone-override';
import { RoomController } from './room-connection/room-controller';
import type { Fetch } from './room-connection/room-requests';
import { CONNECT_TONE, DISCONNECT_TONE, ROGER_BEEP, type Tone } from './tones';
import { TransportEvents } from './transport/transport-events';
import type {
  VoiceParticipant,
  VoiceRoomState,
  VoiceTransport,
  VoiceTransportEvents,
} from './transport/voice-transport';
import { startVoiceRuntime } from './voice-runtime';

/** The media edge: a transport that connects at once and opens (or refuses) the microphone. */
class FakeTransport implements VoiceTransport {
  state: VoiceRoomState = 'disconnected';
  localParticipant: VoiceParticipant | undefined;
  remoteParticipants: readonly VoiceParticipant[] = [];
  isMicrophoneEnabled = false;
  readonly events = new TransportEvents();
  micCalls: boolean[] = [];
  disconnects = 0;
  constructor(private readonly micError?: DOMException) {}
  connect(): Promise<void> {
    this.state = 'connected';
    return Promise.resolve();
  }
  disconnect(): Promise<void> {
    this.disconnects++;
    this.state = 'disconnected';
    this.events.emit('disconnected', { reason: 'client' });
    return Promise.resolve();
  }
  setMicrophoneEnabled(on: boolean): Promise<void> {
    this.micCalls.push(on);
    if (on && this.micError) return Promise.reject(this.micError);
    this.isMicrophoneEnabled = on;
    return Promise.resolve();
  }
  on<K extends keyof VoiceTransportEvents>(
    name: K,
    listener: (e: VoiceTransportEvents[K]) => void,
  ) {
    return this.events.on(name, listener);
  }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The server edge: usage session and token answers, or a 429 over the allowance. */
function server(options: { overLimit?: boolean } = {}): Fetch {
  return (url: string) => {
    if (url === '/api/usage/session/start')
      return Promise.resolve(
        options.overLimit
          ? json({ message: 'Free tier limit exceeded - cannot connect' }, 429)
          : json({ sessionId: 's1' }),
      );
    if (url === '/api/usage/session/end') return Promise.resolve(json({ participantMinutes: 1 }));
    if (url === '/api/livekit-token')
      return Promise.resolve(
        json({ configured: true, provider: 'embedded', url: 'ws://x/rtc', token: 't' }),
      );
    return Promise.reject(new TypeError('Failed to fetch'));
  };
}

function setup(
  options: { overLimit?: boolean; micError?: DOMException; rogerBeep?: () => boolean } = {},
) {
  const presence = new PresenceStore();
  const transports: FakeTransport[] = [];
  const room = new RoomController({
    fetch: server(options),
    createTransport: () => {
      const transport = new FakeTransport(options.micError);
      transports.push(transport);
      return Promise.resolve(transport);
    },
  });
  const toasts: unknown[] = [];
  const tones: Tone[] = [];
  const setChannelMuted = vi.fn();
  const stop = startVoiceRuntime({
    presence,
    room,
    user: { id: 'u1', name: 'Ava' },
    setChannelMuted,
    toast: (toast) => toasts.push(toast),
    playTone: (tone) => tones.push(tone),
    microphoneErrorMessage,
    rogerBeep: options.rogerBeep,
  });
  presence.dispatch({ type: 'socket', open: true });
  presence.dispatch({ type: 'select_channel', channelId: 7 });
  return { presence, room, transports, toasts, tones, setChannelMuted, stop };
}

/** Lets every pending request and transport promise settle. */
const settle = () => vi.waitFor(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the voice runtime', () => {
  it('connects the room while ONLINE, opens the microphone, and only then says talking', async () => {
    const t = setup();
    expect(t.room.getView().phase).toBe('idle');
    t.presence.dispatch({ type: 'toggle_online' });
    expect(t.presence.state.talking).toBe(false);
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true]);
    expect(t.presence.state).toMatchObject({ voiceOnAir: true, talking: true });
    expect(t.tones).toEqual([CONNECT_TONE]);

    t.presence.dispatch({ type: 'toggle_self_mute' });
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true, false]);
    expect(t.presence.state.talking).toBe(false);
    t.stop();
  });

  it('an SOS opens the microphone over Mute Self while it lasts, then Mute Self applies again', async () => {
    const t = setup();
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    t.presence.dispatch({ type: 'toggle_self_mute' });
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true, false]);
    microphoneOverride.set(true);
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true, false, true]);
    microphoneOverride.set(false);
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true, false, true, false]);
    t.stop();
  });

  it('disconnects when idle or on a call, and when going OFFLINE resets Mute Channel', async () => {
    const t = setup();
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    t.presence.dispatch({ type: 'idle', idle: true });
    expect(t.room.getView().connected).toBe(false);
    expect(t.transports[0]!.disconnects).toBe(1);
    expect(t.tones).toEqual([CONNECT_TONE, DISCONNECT_TONE]);
    expect(t.presence.state.talking).toBe(false);

    t.presence.dispatch({ type: 'idle', idle: false });
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    t.presence.dispatch({ type: 'call', active: true });
    expect(t.room.getView().phase).toBe('idle');

    t.presence.dispatch({ type: 'toggle_online' });
    expect(t.setChannelMuted).toHaveBeenCalledWith(false);
    t.stop();
  });

  it('a refused microphone says what happened and never claims talking, while hearing goes on', async () => {
    const t = setup({ micError: new DOMException('Permission denied', 'NotAllowedError') });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.toasts).toHaveLength(1));
    expect(t.toasts[0]).toEqual({
      title: 'Microphone Error',
      description: 'Microphone access denied - please allow microphone permissions',
      variant: 'destructive',
    });
    expect(t.room.getView()).toMatchObject({
      connected: true,
      error: 'Microphone access denied - please allow microphone permissions',
    });
    expect(t.presence.state).toMatchObject({ online: true, voiceOnAir: false, talking: false });
    t.stop();
  });

  it('over the allowance the room stops and the user is never shown talking', async () => {
    const t = setup({ overLimit: true });
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().phase).toBe('stopped'));
    expect(t.room.getView().error).toBe('Free tier limit exceeded - cannot connect');
    expect(t.presence.state.talking).toBe(false);
    expect(t.transports).toEqual([]);
    t.stop();
  });

  it('refused over the allowance, the room is tried again once an SOS opens the microphone', async () => {
    const options = { overLimit: true };
    const t = setup(options);
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().phase).toBe('stopped'));
    // The server admits the user while their SOS is unresolved (decision 050).
    options.overLimit = false;
    microphoneOverride.set(true);
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    await settle();
    expect(t.transports[0]!.micCalls).toEqual([true]);
    microphoneOverride.set(false);
    t.stop();
  });

  it('stopping (sign-out) leaves the room', async () => {
    const t = setup();
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    t.stop();
    expect(t.room.getView().phase).toBe('idle');
    expect(t.presence.state.voiceOnAir).toBe(false);
  });

  it('beeps "over" when a hold-to-talk is released, only while the roger beep is on', async () => {
    let rogerBeep = true;
    const t = setup({ rogerBeep: () => rogerBeep });
    t.presence.dispatch({ type: 'set_talk_mode', mode: 'hold' });
    t.presence.dispatch({ type: 'toggle_online' });
    await vi.waitFor(() => expect(t.room.getView().connected).toBe(true));
    await settle();
    expect(t.tones).toEqual([CONNECT_TONE]);

    t.presence.dispatch({ type: 'hold', holding: true });
    await vi.waitFor(() => expect(t.presence.state.talking).toBe(true));
    t.presence.dispatch({ type: 'hold', holding: false });
    expect(t.tones).toEqual([CONNECT_TONE, ROGER_BEEP]);

    rogerBeep = false;
    t.presence.dispatch({ type: 'hold', holding: true });
    await vi.waitFor(() => expect(t.presence.state.talking).toBe(true));
    t.presence.dispatch({ type: 'hold', holding: false });
    expect(t.tones).toEqual([CONNECT_TONE, ROGER_BEEP]);

    // Going offline while holding ends with the leave tone, not a roger beep.
    rogerBeep = true;
    t.presence.dispatch({ type: 'hold', holding: true });
    await vi.waitFor(() => expect(t.presence.state.talking).toBe(true));
    t.presence.dispatch({ type: 'toggle_online' });
    expect(t.tones).toEqual([CONNECT_TONE, ROGER_BEEP, DISCONNECT_TONE]);
    t.stop();
  });
});
