// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelMember } from '../../../../protocol/channels';
import { createQueryClient } from '../../lib/query-client';
import { fakeChannelSocket, type FakeWebSocket } from '../../testing/fake-websocket';
import { channelMembersKey } from '../channels/channel-queries';
import { createHoldControl } from './hold-control';
import { IdleWarningStore } from './idle-warning';
import type { Toast } from './online-state';
import { startPresenceRuntime } from './presence-runtime';
import { PresenceStore } from './presence-store';
import { isHeld, isSelfMuted } from './transmit-gate';

const member = (id: string, patch: Partial<ChannelMember> = {}): ChannelMember => ({
  id,
  userId: id,
  name: `User ${id}`,
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
  ...patch,
});

/** A page without a DOM: plain event targets and a visibility flag. */
function fakePage() {
  const win = new EventTarget();
  const doc: EventTarget & { visibilityState: DocumentVisibilityState } = Object.assign(
    new EventTarget(),
    { visibilityState: 'visible' as const },
  );
  return {
    page: { window: win, document: doc },
    setHidden(hidden: boolean) {
      doc.visibilityState = hidden ? 'hidden' : 'visible';
      doc.dispatchEvent(new Event('visibilitychange'));
    },
    key(type: 'keydown' | 'keyup', code: string) {
      const event = Object.assign(new Event(type, { cancelable: true }), { code, repeat: false });
      win.dispatchEvent(event);
    },
  };
}

function fakeChannel(initial: number | null) {
  let id = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => id,
    set: (next: number | null) => {
      id = next;
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function setup(options: { channelId?: number | null; tier?: 'free' | 'admin' } = {}) {
  const { socket, last } = fakeChannelSocket();
  const store = new PresenceStore();
  const hold = createHoldControl(store);
  const channel = fakeChannel(options.channelId === undefined ? 7 : options.channelId);
  const queryClient = createQueryClient();
  const toasts: Toast[] = [];
  const page = fakePage();
  const handlers = new Map<string, MediaSessionActionHandler | null>();
  const mediaSession = {
    setActionHandler: (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
      handlers.set(action, handler);
    },
  };
  const pokes = { sound: vi.fn(() => Promise.resolve()), vibrate: vi.fn() };
  const idleWarning = new IdleWarningStore();
  socket.open();
  const stop = startPresenceRuntime({
    store,
    hold,
    socket,
    channel,
    user: { id: 'u1', subscriptionTier: options.tier ?? 'free' },
    queryClient,
    toast: (toast) => toasts.push(toast),
    page: page.page,
    wakeLock: undefined,
    mediaSession,
    pokes,
    idleWarning,
  });
  const ws = (): FakeWebSocket => last();
  const sent = () =>
    ws().sent.map((m) =>
      [m.type, m.channelId, m.listening]
        .filter((part) => part !== undefined)
        .map(String)
        .join(':'),
    );
  return {
    socket,
    store,
    hold,
    channel,
    queryClient,
    toasts,
    page,
    handlers,
    pokes,
    idleWarning,
    stop,
    ws,
    sent,
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the presence runtime', () => {
  it('joins the current channel when the socket opens, listens when ONLINE, leaves on stop', () => {
    const t = setup();
    t.ws().serverOpens();
    expect(t.sent()).toEqual(['join_channel:7:false']);
    t.store.dispatch({ type: 'toggle_online' });
    expect(t.toasts).toEqual([{ title: 'Online', description: 'Connecting to voice...' }]);
    t.store.dispatch({ type: 'voice', onAir: true });
    expect(t.sent()).toEqual(['join_channel:7:false', 'join_channel:7:true', 'start_talking:7']);
    expect(t.ws().sent.at(-1)).toMatchObject({ userId: 'u1' });
    t.stop();
    expect(t.sent().slice(-2)).toEqual(['stop_talking:7', 'leave_channel:7']);
  });

  it('follows the channel selection, going offline before switching', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    t.channel.set(8);
    expect(t.store.state).toMatchObject({ online: false, channelId: 8 });
    expect(t.sent().slice(-2)).toEqual(['leave_channel:7', 'join_channel:8:false']);
    t.stop();
  });

  it('forces offline with Connection Lost when the socket drops', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    t.ws().close();
    expect(t.store.state.online).toBe(false);
    expect(t.toasts.at(-1)).toMatchObject({ title: 'Connection Lost' });
    t.stop();
  });

  it('rejoins by itself once the socket is back and the server still lists the user', async () => {
    const asked: string[] = [];
    let members = [member('u1'), member('u2')];
    // The network edge: the app's query client really fetches the member list.
    vi.stubGlobal('fetch', (input: string) => {
      asked.push(input);
      return Promise.resolve(new Response(JSON.stringify(members), { status: 200 }));
    });
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    t.ws().close();
    expect(t.toasts.at(-1)).toMatchObject({ title: 'Connection Lost' });
    await vi.advanceTimersByTimeAsync(1250);
    t.ws().serverOpens();
    await vi.waitFor(() => expect(t.store.state.online).toBe(true));
    expect(asked).toEqual(['/api/channels/7/members']);
    expect(t.toasts.at(-1)).toEqual({
      title: 'Reconnected',
      description: 'Back online in the channel',
    });
    expect(t.sent().slice(-2)).toEqual(['join_channel:7:false', 'join_channel:7:true']);

    // Removed while the connection was down: the user stays OFFLINE.
    members = [member('u2')];
    t.ws().close();
    await vi.advanceTimersByTimeAsync(1250);
    t.ws().serverOpens();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.store.state).toMatchObject({ online: false, rejoin: null });
    expect(t.toasts.at(-1)).toMatchObject({ title: 'Connection Lost' });
    t.stop();
  });

  it('patches member lists from member_update and leaves a deleted channel', () => {
    const t = setup();
    t.ws().serverOpens();
    t.queryClient.setQueryData(channelMembersKey(7), [member('u1'), member('u2')]);
    t.ws().serverSends({
      type: 'member_update',
      channelId: 7,
      member: member('u2', { isTalking: true }),
    });
    expect(t.queryClient.getQueryData<ChannelMember[]>(channelMembersKey(7))?.[1]?.isTalking).toBe(
      true,
    );

    t.store.dispatch({ type: 'toggle_online' });
    t.ws().serverSends({ type: 'channel_changed', channelId: 7, change: 'channel_deleted' });
    expect(t.channel.get()).toBeNull();
    expect(t.store.state.online).toBe(false);
    expect(t.toasts.at(-1)).toEqual({ title: 'Offline', description: 'This channel was deleted' });
    t.stop();
  });

  it('toasts, beeps and buzzes on a poke', () => {
    const t = setup();
    t.ws().serverOpens();
    t.ws().serverSends({ type: 'poke', channelId: 7, from: { id: 'u2', name: 'Bea' } });
    expect(t.toasts).toEqual([{ title: 'Poke!', description: 'Bea poked you' }]);
    expect(t.pokes.sound).toHaveBeenCalledOnce();
    expect(t.pokes.vibrate).toHaveBeenCalledOnce();
    t.stop();
  });

  it('goes idle when the page hides or after the tier timeout, only while online', () => {
    const t = setup();
    t.ws().serverOpens();
    t.page.setHidden(true);
    expect(t.store.state.idle).toBe(false);
    t.page.setHidden(false);
    t.store.dispatch({ type: 'toggle_online' });
    t.page.setHidden(true);
    expect(t.store.state.idle).toBe(true);
    expect(t.sent().at(-1)).toBe('join_channel:7:false');
    t.page.setHidden(false);
    expect(t.store.state.idle).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(t.store.state.idle).toBe(true);
    t.page.page.window.dispatchEvent(new Event('mousemove'));
    expect(t.store.state.idle).toBe(false);
    t.stop();
  });

  it('warns 10 s before idling; Keep listening keeps the user listening', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    const onlineAt = Date.now();
    vi.advanceTimersByTime(49_999);
    expect(t.idleWarning.get()).toBeNull();
    vi.advanceTimersByTime(1);
    expect(t.idleWarning.get()).toEqual({ idleAt: onlineAt + 60_000, msLeft: 10_000 });
    expect(t.store.state.idle).toBe(false);

    t.idleWarning.markActive();
    expect(t.idleWarning.get()).toBeNull();
    vi.advanceTimersByTime(59_999);
    expect(t.store.state.idle).toBe(false);
    expect(t.sent().at(-1)).toBe('join_channel:7:true');
    t.stop();
  });

  it('after idling, one tap (Listen again) or key hears the channel again', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    vi.advanceTimersByTime(60_000);
    expect(t.store.state.idle).toBe(true);
    expect(t.idleWarning.get()).toBeNull();
    expect(t.sent().at(-1)).toBe('join_channel:7:false');

    t.idleWarning.markActive();
    expect(t.store.state.idle).toBe(false);
    expect(t.sent().at(-1)).toBe('join_channel:7:true');

    vi.advanceTimersByTime(60_000);
    expect(t.store.state.idle).toBe(true);
    t.page.key('keydown', 'KeyA');
    expect(t.store.state.idle).toBe(false);
    t.stop();
  });

  it('drops the warning and the way back when going offline', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    vi.advanceTimersByTime(50_000);
    expect(t.idleWarning.get()).not.toBeNull();
    t.store.dispatch({ type: 'toggle_online' });
    expect(t.idleWarning.get()).toBeNull();
    t.idleWarning.markActive();
    vi.advanceTimersByTime(60_000);
    expect(t.store.state).toMatchObject({ online: false, idle: false });
    t.stop();
  });

  it('pauses idle detection during a call', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    t.store.dispatch({ type: 'call', active: true });
    t.page.setHidden(true);
    expect(t.store.state.idle).toBe(false);
    t.stop();
  });

  it('holds Space to talk in Hold to talk mode, and leaves Space alone otherwise', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'set_talk_mode', mode: 'hold' });
    t.page.key('keydown', 'Space');
    expect(isHeld(t.store.state.gate)).toBe(false);
    t.store.dispatch({ type: 'toggle_online' });
    t.store.dispatch({ type: 'voice', onAir: true });
    t.page.key('keydown', 'Space');
    expect(t.store.state.talking).toBe(true);
    t.page.key('keyup', 'Space');
    vi.advanceTimersByTime(300);
    expect(t.store.state.talking).toBe(false);
    t.stop();
  });

  it('maps the headset button only when the user opted in, and only while online', () => {
    const t = setup();
    t.ws().serverOpens();
    t.store.dispatch({ type: 'toggle_online' });
    expect(t.handlers.get('play') ?? null).toBeNull();
    t.store.dispatch({ type: 'set_headset_talk', on: true });
    const play = t.handlers.get('play');
    expect(play).toBeTypeOf('function');
    play?.({ action: 'play' });
    expect(isSelfMuted(t.store.state.gate)).toBe(true);
    t.store.dispatch({ type: 'toggle_online' });
    expect(t.handlers.get('play')).toBeNull();
    t.stop();
  });
});
