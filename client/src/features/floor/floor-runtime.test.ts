// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../../../protocol/channels';
import { createQueryClient } from '../../lib/query-client';
import { fakeChannelSocket } from '../../testing/fake-websocket';
import { userChannelsKey } from '../channels/channel-queries';
import type { Toast } from '../presence/online-state';
import { PresenceStore } from '../presence/presence-store';
import { connectPresence } from '../presence/socket-presence';
import { BUSY_TONE, TALK_PERMIT_TONE, type Tone } from '../voice/tones';
import { GRANT_VIBRATION, REFUSAL_VIBRATION, startFloorRuntime } from './floor-runtime';
import { FloorViewStore } from './floor-view';

const channel = (talkMode: Channel['talkMode']): Channel => ({
  id: 7,
  name: 'Radio',
  createdBy: 'owner',
  memberCount: 3,
  keepTransmissions: true,
  sos: false,
  sosSeconds: 10,
  talkMode,
  maxTransmissionSeconds: 60,
});

function setup() {
  const { socket, last } = fakeChannelSocket();
  const presence = new PresenceStore();
  const listeners = new Set<() => void>();
  const current = {
    get: () => 7,
    set: () => undefined,
    subscribe: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
  };
  const queryClient = createQueryClient();
  queryClient.setQueryData(userChannelsKey('u1'), [channel('walkie')]);
  const tones: Tone[] = [];
  const toasts: Toast[] = [];
  const buzzes: VibratePattern[] = [];
  const view = new FloorViewStore();
  socket.open();
  last().serverOpens();
  const stops = [
    connectPresence(
      presence,
      socket,
      current,
      'u1',
      (t) => toasts.push(t),
      async () => true,
    ),
    startFloorRuntime({
      socket,
      presence,
      channel: current,
      queryClient,
      userId: 'u1',
      view,
      playTone: (tone) => tones.push(tone),
      vibrate: (pattern) => buzzes.push(pattern),
      toast: (t) => toasts.push(t),
    }),
  ];
  presence.dispatch({ type: 'toggle_online' });
  presence.dispatch({ type: 'voice', onAir: true });
  const server = (message: object) => last().serverSends({ channelId: 7, ...message });
  const sent = () => last().sent.map((m) => m.type);
  return {
    presence,
    queryClient,
    tones,
    toasts,
    buzzes,
    view,
    server,
    sent,
    stop: () => stops.forEach((s) => s()),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the walkie-talkie floor on the client', () => {
  it('learns the talk mode from the channel lists, and follows a change', () => {
    const t = setup();
    expect(t.presence.state.gate.walkie).toBe(true);
    t.queryClient.setQueryData(userChannelsKey('u1'), [channel('open')]);
    expect(t.presence.state.gate.walkie).toBe(false);
    t.stop();
  });

  it('a press asks for the floor; the grant opens the microphone with the permit tone', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    expect(t.sent().at(-1)).toBe('floor_request');
    expect(t.presence.state.talking).toBe(false);
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 60_000,
    });
    expect(t.presence.state.talking).toBe(true);
    expect(t.tones).toEqual([TALK_PERMIT_TONE]);
    expect(t.view.state.holder?.id).toBe('u1');
    t.stop();
  });

  it('a refused press plays the busy tone and shows who is talking', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({ type: 'floor_denied', reason: 'busy', holder: { id: 'u2', name: 'Ava' } });
    expect(t.tones).toEqual([BUSY_TONE]);
    expect(t.view.state.holder).toEqual({ id: 'u2', name: 'Ava' });
    expect(t.presence.state.talking).toBe(false);
    expect(t.presence.state.gate.state).toBe('refused');
    t.stop();
  });

  it('an admin cutting in closes the microphone, with the busy tone and a toast naming them', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 60_000,
    });
    t.server({
      type: 'floor_state',
      holder: { id: 'admin', name: 'Olivia Owner' },
      expiresAt: Date.now() + 60_000,
      ended: 'cut_in',
    });
    expect(t.presence.state.talking).toBe(false);
    expect(t.tones).toEqual([TALK_PERMIT_TONE, BUSY_TONE]);
    expect(t.toasts.at(-1)).toEqual({
      title: 'Cut in',
      description: 'Olivia Owner took the floor',
    });
    t.stop();
  });

  it('the end of the maximum transmission time is told to the talker', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 60_000,
    });
    t.server({ type: 'floor_state', holder: null, expiresAt: null, ended: 'expired' });
    expect(t.presence.state.talking).toBe(false);
    expect(t.toasts.at(-1)?.title).toBe('Transmission ended');
    t.stop();
  });

  it('the grant buzzes once and starts the countdown of the channel’s maximum on this clock', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    expect(t.view.state.live).toBeNull();
    // The server's clock is 5 s ahead: the countdown still runs the channel's 60 s from the grant.
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 65_000,
    });
    expect(t.buzzes).toEqual([GRANT_VIBRATION]);
    expect(t.view.state.live).toEqual({ until: 1_000_000 + 60_000, seconds: 60 });
    // Later news of the same hold keeps the countdown where it was.
    vi.advanceTimersByTime(2_000);
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 63_000,
    });
    expect(t.view.state.live).toEqual({ until: 1_000_000 + 60_000, seconds: 60 });
    t.server({ type: 'floor_state', holder: null, expiresAt: null });
    expect(t.view.state.live).toBeNull();
    t.stop();
    vi.useRealTimers();
  });

  it('every refusal buzzes twice and is dated so the button can shake, whatever the reason', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({ type: 'floor_denied', reason: 'too_soon', holder: null });
    expect(t.buzzes).toEqual([REFUSAL_VIBRATION]);
    const first = t.view.state.deniedAt;
    expect(first).not.toBeNull();
    t.presence.dispatch({ type: 'hold', holding: false });
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({ type: 'floor_denied', reason: 'busy', holder: { id: 'u2', name: 'Ava' } });
    expect(t.buzzes).toEqual([REFUSAL_VIBRATION, REFUSAL_VIBRATION]);
    expect(t.view.state.holder).toEqual({ id: 'u2', name: 'Ava' });
    t.stop();
  });

  it('an admin cutting in buzzes as a refusal does and marks the moment', () => {
    const t = setup();
    t.presence.dispatch({ type: 'hold', holding: true });
    t.server({
      type: 'floor_state',
      holder: { id: 'u1', name: 'Me' },
      expiresAt: Date.now() + 60_000,
    });
    t.server({
      type: 'floor_state',
      holder: { id: 'admin', name: 'Olivia Owner' },
      expiresAt: Date.now() + 60_000,
      ended: 'cut_in',
    });
    expect(t.buzzes).toEqual([GRANT_VIBRATION, REFUSAL_VIBRATION]);
    expect(t.view.state.deniedAt).not.toBeNull();
    expect(t.view.state.live).toBeNull();
    t.stop();
  });
});
