// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SOS_COUNTDOWN_MS,
  SOS_LOCATION_INTERVAL_MS,
  SOS_LOCATION_WINDOW_MS,
  type SosLocationBody,
} from '../../../../protocol/sos';
import { PresenceStore } from '../presence/presence-store';
import { SosAlertsStore } from './sos-alerts-store';
import type { SosArm } from './sos-arming';
import { SosSender } from './sos-sender';
import { sosAlert } from './sos-test-data';

const family = { id: 7, name: 'Family', sosSeconds: 10 };

class FakeGeolocation {
  onPosition: PositionCallback | null = null;
  options: PositionOptions | undefined;
  cleared = 0;
  watchPosition(
    success: PositionCallback,
    _error?: PositionErrorCallback | null,
    options?: PositionOptions,
  ) {
    this.onPosition = success;
    this.options = options;
    return 1;
  }
  clearWatch() {
    this.cleared++;
    this.onPosition = null;
  }
  move(latitude: number, longitude: number, accuracy = 12) {
    this.onPosition?.({ coords: { latitude, longitude, accuracy } } as GeolocationPosition);
  }
}

/** An arm that the voice server granted (or not), recording how it ended. */
function fakeArm(armed: boolean) {
  const ends: string[] = [];
  const arm: SosArm = {
    armed,
    settle: () => ends.push('settle'),
    cancel: () => ends.push('cancel'),
  };
  return { arm, ends };
}

function setup(
  options: {
    raise?: () => Promise<ReturnType<typeof sosAlert>>;
    startIn?: number | null;
    arm?: SosArm;
  } = {},
) {
  const presence = new PresenceStore();
  presence.dispatch({ type: 'socket', open: true });
  presence.dispatch({
    type: 'select_channel',
    channelId: options.startIn === undefined ? 3 : options.startIn,
  });
  const shown: number[] = [];
  const raised: number[] = [];
  const located: SosLocationBody[] = [];
  const toasts: { title: string; description?: string }[] = [];
  const microphone: boolean[] = [];
  const store = new SosAlertsStore();
  const geolocation = new FakeGeolocation();
  let locateFails = false;
  const sender = new SosSender({
    presence,
    showChannel: (id) => {
      shown.push(id);
      presence.dispatch({ type: 'select_channel', channelId: id });
    },
    microphone: { set: (open) => microphone.push(open) },
    ...(options.arm ? { arm: () => options.arm! } : {}),
    store,
    api: {
      raise: (channelId) => {
        raised.push(channelId);
        return (
          options.raise?.() ??
          Promise.resolve(
            sosAlert({ raisedAt: new Date().toISOString(), talkUntil: Date.now() + 10_000 }),
          )
        );
      },
      locate: (_id, location) => {
        if (locateFails) return Promise.reject(new Error('503: {"message":"Try again"}'));
        located.push(location);
        return Promise.resolve();
      },
    },
    geolocation,
    toast: (toast) => toasts.push(toast),
    messageOf: (error) => (error instanceof Error ? error.message : String(error)),
  });
  return {
    sender,
    presence,
    shown,
    raised,
    located,
    toasts,
    microphone,
    store,
    geolocation,
    failLocate: (fail: boolean) => (locateFails = fail),
  };
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00.000Z') }));
afterEach(() => vi.useRealTimers());

describe('sending an SOS', () => {
  it("counts down, meanwhile watching the position precisely and joining the channel's voice", () => {
    const t = setup();
    t.sender.start(family);
    expect(t.sender.getView()).toMatchObject({ phase: 'countdown', target: family });
    expect(t.geolocation.options).toMatchObject({ enableHighAccuracy: true });
    expect(t.shown).toEqual([7]);
    expect(t.presence.state).toMatchObject({ channelId: 7, online: true });
    // ONLINE in an open channel would talk: the microphone stays shut until the SOS goes out.
    expect(t.presence.state.gate.mute).toBe('muted');
    expect(t.presence.state.talking).toBe(false);
    expect(t.raised).toEqual([]);
  });

  it('cancelled, sends nothing and puts the user back where they were', async () => {
    const t = setup();
    t.sender.start(family);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS - 1);
    t.sender.cancel();
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS * 3);
    expect(t.raised).toEqual([]);
    expect(t.located).toEqual([]);
    expect(t.sender.getView().phase).toBe('idle');
    expect(t.presence.state).toMatchObject({ channelId: 3, online: false });
    expect(t.geolocation.cleared).toBe(1);
    expect(t.microphone).toEqual([]);
  });

  it('at the end raises it once, opens the microphone for the talk time, and sends the position at once and every 15 s', async () => {
    const t = setup({ startIn: 7 });
    t.sender.start(family);
    t.geolocation.move(51.50135, -0.14189, 12.4);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    expect(t.raised).toEqual([7]);
    expect(t.microphone).toEqual([true]);
    expect(t.sender.getView()).toMatchObject({ phase: 'sent', micUntil: Date.now() + 10_000 });
    expect(t.located).toEqual([{ latitude: 51.50135, longitude: -0.14189, accuracy: 12.4 }]);
    // The sender sees their own alert.
    expect(t.store.getView().alerts).toHaveLength(1);

    t.geolocation.move(51.5014, -0.1419, 8);
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_INTERVAL_MS);
    expect(t.located).toHaveLength(2);
    // Talk time over: the microphone closes again.
    expect(t.microphone).toEqual([true, false]);
    expect(t.sender.getView().phase).toBe('idle');
    // The same position is not sent again.
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_INTERVAL_MS);
    expect(t.located).toHaveLength(2);
    // And nothing after the window.
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_WINDOW_MS);
    t.geolocation.move(1, 1);
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_INTERVAL_MS);
    expect(t.located).toHaveLength(2);
    expect(t.raised).toEqual([7]);
  });

  it('armed, opens the microphone with the answer (the floor given), not as the raise goes out', async () => {
    const { arm, ends } = fakeArm(true);
    let answer: (alert: ReturnType<typeof sosAlert>) => void = () => undefined;
    const t = setup({
      startIn: 7,
      arm,
      raise: () => new Promise((resolve) => (answer = resolve)),
    });
    t.sender.start(family);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    expect(t.raised).toEqual([7]);
    expect(ends).toEqual(['settle']);
    // Its muted publication would be heard once opened: not before the server gave the floor.
    expect(t.microphone).toEqual([]);
    answer(sosAlert({ raisedAt: new Date().toISOString(), talkUntil: Date.now() + 10_000 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.microphone).toEqual([true]);
  });

  it('unarmed, opens the microphone as the raise goes out; a cancelled countdown takes its arm back', async () => {
    const unarmed = fakeArm(false);
    const t = setup({ startIn: 7, arm: unarmed.arm });
    t.sender.start(family);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    expect(t.microphone).toEqual([true]);
    expect(unarmed.ends).toEqual(['settle']);

    const armed = fakeArm(true);
    const again = setup({ arm: armed.arm });
    again.sender.start(family);
    again.sender.cancel();
    expect(armed.ends).toEqual(['cancel']);
    expect(again.microphone).toEqual([]);
  });

  it('a failed location is said once and tried again at the next tick', async () => {
    const t = setup({ startIn: 7 });
    t.sender.start(family);
    t.geolocation.move(10, 20);
    t.failLocate(true);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    expect(t.toasts).toEqual([
      {
        title: 'Location not shared',
        description: '503: {"message":"Try again"}',
        variant: 'destructive',
      },
    ]);
    t.failLocate(false);
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_INTERVAL_MS);
    expect(t.located).toEqual([{ latitude: 10, longitude: 20, accuracy: 12 }]);
    expect(t.toasts).toHaveLength(1);
  });

  it('stops sending the position once the alert is resolved', async () => {
    const t = setup({ startIn: 7 });
    t.sender.start(family);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    t.store.receive(
      sosAlert({ resolvedAt: new Date().toISOString(), resolvedBy: { id: 'ava', name: 'Ava' } }),
    );
    t.geolocation.move(10, 20);
    await vi.advanceTimersByTimeAsync(SOS_LOCATION_INTERVAL_MS * 2);
    expect(t.located).toEqual([]);
  });

  it("a refused SOS says the server's words and shuts the microphone it opened as the raise went out", async () => {
    const t = setup({
      raise: () => Promise.reject(new Error('This channel is not an SOS channel')),
    });
    t.sender.start(family);
    await vi.advanceTimersByTimeAsync(SOS_COUNTDOWN_MS);
    expect(t.toasts).toEqual([
      {
        title: 'SOS not sent',
        description: 'This channel is not an SOS channel',
        variant: 'destructive',
      },
    ]);
    expect(t.microphone).toEqual([true, false]);
    expect(t.sender.getView().phase).toBe('idle');
  });
});
