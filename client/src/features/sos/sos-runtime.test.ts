// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import type { ServerSocketMessage } from '../realtime/channel-socket';
import type { SocketState } from '../realtime/socket-connection';
import { SosAlertsStore } from './sos-alerts-store';
import { startSosRuntime } from './sos-runtime';
import { sosAlert } from './sos-test-data';

/** The socket edge: what the server pushes, by type. */
class FakeSocket {
  state: SocketState = 'connected';
  private readonly handlers = new Map<string, (message: ServerSocketMessage) => void>();
  on<T extends ServerSocketMessage['type']>(
    type: T,
    handler: (m: Extract<ServerSocketMessage, { type: T }>) => void,
  ) {
    this.handlers.set(type, handler as (message: ServerSocketMessage) => void);
    return () => this.handlers.delete(type);
  }
  onState() {
    return () => undefined;
  }
  push(message: ServerSocketMessage) {
    this.handlers.get(message.type)?.(message);
  }
}

function setup(openAlerts: unknown[] = []) {
  vi.stubGlobal('fetch', () =>
    Promise.resolve(new Response(JSON.stringify(openAlerts), { status: 200 })),
  );
  const socket = new FakeSocket();
  const store = new SosAlertsStore();
  const sosIds: string[][] = [];
  const toasts: { title: string }[] = [];
  const alarm = vi.fn();
  const stop = startSosRuntime({
    socket,
    queryClient: createQueryClient(),
    userId: 'ben',
    channel: { get: () => 7, subscribe: () => () => undefined },
    store,
    setSosUserIds: (ids) => sosIds.push([...ids]),
    toast: (toast) => toasts.push(toast),
    alarm,
  });
  return { socket, store, sosIds, toasts, alarm, stop };
}

beforeEach(() =>
  vi.useFakeTimers({
    now: new Date('2026-11-27T12:00:02.000Z'),
    toFake: ['setTimeout', 'clearTimeout', 'Date'],
  }),
);
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the SOS runtime', () => {
  it('shows a new alert with the alarm once, keeps its changes, and says who resolved it', () => {
    const t = setup();
    t.socket.push({ type: 'sos_alert', alert: sosAlert() });
    t.socket.push({
      type: 'sos_alert',
      alert: sosAlert({
        acks: [{ user: { id: 'ben', name: 'Ben' }, at: '2026-11-27T12:00:05.000Z' }],
      }),
    });
    expect(t.alarm).toHaveBeenCalledTimes(1);
    expect(t.store.getView().alerts[0]?.acks).toHaveLength(1);
    t.socket.push({
      type: 'sos_alert',
      alert: sosAlert({
        resolvedAt: '2026-11-27T12:03:00.000Z',
        resolvedBy: { id: 'olivia', name: 'Olivia' },
      }),
    });
    expect(t.store.getView().alerts).toEqual([]);
    expect(t.toasts).toEqual([{ title: 'SOS from Ava resolved by Olivia' }]);
    t.stop();
  });

  it("no alarm for the sender's own alert", () => {
    const t = setup();
    t.socket.push({ type: 'sos_alert', alert: sosAlert({ sender: { id: 'ben', name: 'Ben' } }) });
    expect(t.alarm).not.toHaveBeenCalled();
    expect(t.store.getView().alerts).toHaveLength(1);
    t.stop();
  });

  it('loads the open alerts on connect, with the alarm for each one not seen', async () => {
    const t = setup([sosAlert()]);
    await vi.waitFor(() => expect(t.store.getView().alerts).toHaveLength(1));
    expect(t.alarm).toHaveBeenCalledTimes(1);
    t.stop();
  });

  it('plays the SOS holder at full volume while the floor says sos, and the sender until the talk time ends', async () => {
    const t = setup();
    t.socket.push({
      type: 'floor_state',
      channelId: 7,
      holder: { id: 'cid', name: 'Cid' },
      expiresAt: null,
      sos: true,
    });
    expect(t.sosIds.at(-1)).toEqual(['cid']);
    t.socket.push({
      type: 'floor_state',
      channelId: 7,
      holder: { id: 'cid', name: 'Cid' },
      expiresAt: null,
    });
    expect(t.sosIds.at(-1)).toEqual([]);
    // Ava's alert: talk time until 12:00:10, it is 12:00:02.
    t.socket.push({ type: 'sos_alert', alert: sosAlert() });
    expect(t.sosIds.at(-1)).toEqual(['ava']);
    await vi.advanceTimersByTimeAsync(8_100);
    expect(t.sosIds.at(-1)).toEqual([]);
    t.stop();
  });
});
