import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TransportEvents } from '../transport/transport-events';
import {
  VoiceTransportError,
  type VoiceParticipant,
  type VoiceRoomState,
  type VoiceTransport,
  type VoiceTransportEvents,
} from '../transport/voice-transport';
import { RoomController } from './room-controller';
import type { Fetch } from './room-requests';

const target = { channelId: 7, userId: 'u1', userName: 'Ava' };

/** A transport whose connect the test settles by hand. */
class FakeTransport implements VoiceTransport {
  state: VoiceRoomState = 'disconnected';
  localParticipant: VoiceParticipant | undefined;
  remoteParticipants: readonly VoiceParticipant[] = [];
  isMicrophoneEnabled = false;
  readonly events = new TransportEvents();
  connectCalls: [string, string][] = [];
  disconnects = 0;
  micCalls: boolean[] = [];
  micError: Error | undefined;
  private settle: { resolve: () => void; reject: (e: Error) => void } | undefined;

  connect(url: string, token: string): Promise<void> {
    this.connectCalls.push([url, token]);
    return new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }
  succeed() {
    this.settle?.resolve();
  }
  fail(error: Error) {
    this.settle?.reject(error);
  }
  disconnect(): Promise<void> {
    this.disconnects++;
    this.events.emit('disconnected', { reason: 'client' });
    return Promise.resolve();
  }
  setMicrophoneEnabled(on: boolean): Promise<void> {
    this.micCalls.push(on);
    return this.micError ? Promise.reject(this.micError) : Promise.resolve();
  }
  on<K extends keyof VoiceTransportEvents>(
    name: K,
    listener: (e: VoiceTransportEvents[K]) => void,
  ) {
    return this.events.on(name, listener);
  }
}

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

function setup(handlers: Record<string, Handler>) {
  const calls: { url: string; body: unknown }[] = [];
  const fetchFn: Fetch = vi.fn((url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const handler = handlers[url];
    return handler
      ? Promise.resolve(handler(init))
      : Promise.reject(new TypeError('Failed to fetch'));
  });
  const transports: FakeTransport[] = [];
  const controller = new RoomController({
    fetch: fetchFn,
    createTransport: () => {
      const transport = new FakeTransport();
      transports.push(transport);
      return Promise.resolve(transport);
    },
  });
  const urls = () => calls.map((c) => c.url);
  return { controller, calls, urls, transports };
}

const okHandlers = (): Record<string, Handler> => ({
  '/api/usage/session/start': () => json({ sessionId: 's1' }),
  '/api/livekit-token': () =>
    json({ configured: true, provider: 'embedded', url: 'ws://h/rtc', token: 'tok' }),
  '/api/usage/session/end': () => json({ participantMinutes: 1 }),
});

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  // Failed attempts are logged on purpose; keep the test output readable.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('RoomController', () => {
  it('session → token → connect → connected, and leaves cleanly when disabled', async () => {
    const { controller, calls, urls, transports } = setup(okHandlers());
    controller.configure(target);
    expect(controller.getView().roomState).toBe('connecting');
    await flush();
    expect(calls[0]).toEqual({ url: '/api/usage/session/start', body: { channelId: 7 } });
    expect(calls[1]).toEqual({ url: '/api/livekit-token', body: target });
    expect(transports[0]?.connectCalls).toEqual([['ws://h/rtc', 'tok']]);
    transports[0]?.succeed();
    await flush();
    expect(controller.getView()).toMatchObject({
      connected: true,
      roomState: 'connected',
      error: null,
    });

    controller.configure(null);
    await flush();
    expect(transports[0]?.disconnects).toBe(1);
    expect(urls()).toContain('/api/usage/session/end');
    expect(calls.at(-1)?.body).toEqual({ sessionId: 's1' });
    expect(controller.getView().connected).toBe(false);
  });

  it('over the limit: shows the 429 message and makes no connection', async () => {
    const { controller, urls, transports } = setup({
      '/api/usage/session/start': () =>
        json({ message: 'Free tier limit exceeded - cannot connect' }, 429, 'Too Many Requests'),
    });
    controller.configure(target);
    await flush();
    expect(controller.getView()).toMatchObject({
      error: 'Free tier limit exceeded - cannot connect',
      roomState: 'disconnected',
    });
    expect(urls()).toEqual(['/api/usage/session/start']);
    expect(transports).toHaveLength(0);
  });

  it('a failed session start blocks for safety', async () => {
    const { controller } = setup({
      '/api/usage/session/start': () => json({}, 500, 'Server Error'),
    });
    controller.configure(target);
    await flush();
    expect(controller.getView().error).toBe(
      'Failed to start usage tracking - connection blocked for safety',
    );
  });

  it('a refused token names the provider the server uses, with the status text, and ends the session', async () => {
    const { controller, urls } = setup({
      ...okHandlers(),
      '/api/livekit-token': () =>
        new Response(
          JSON.stringify({ message: 'Tokens are issued only for yourself', provider: 'embedded' }),
          {
            status: 403,
            statusText: 'Forbidden',
          },
        ),
    });
    controller.configure(target);
    await flush();
    expect(controller.getView().error).toBe('Failed to get built-in voice token: Forbidden');
    expect(urls()).toContain('/api/usage/session/end');
  });

  it('a refusal that names no provider keeps the spec wording', async () => {
    const { controller } = setup({
      ...okHandlers(),
      '/api/livekit-token': () =>
        new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }),
    });
    controller.configure(target);
    await flush();
    expect(controller.getView().error).toBe('Failed to get LiveKit token: Bad Gateway');
  });

  it('configured:false stops with the configuration message', async () => {
    const { controller, transports } = setup({
      ...okHandlers(),
      '/api/livekit-token': () => json({ configured: false, provider: 'LiveKit' }),
    });
    controller.configure(target);
    await flush();
    expect(controller.getView().error).toBe('Voice features require LiveKit configuration');
    expect(transports).toHaveLength(0);
  });

  it('aborts the token request after 10 s and retries after 3 s', async () => {
    const handlers = okHandlers();
    let hang = true;
    handlers['/api/livekit-token'] = (init) =>
      hang
        ? new Promise<Response>((_, reject) =>
            init?.signal?.addEventListener('abort', () =>
              reject(new DOMException('The operation was aborted.', 'AbortError')),
            ),
          )
        : json({ configured: true, provider: 'embedded', url: 'ws://h/rtc', token: 'tok' });
    const { controller, urls, transports } = setup(handlers);
    controller.configure(target);
    await flush();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(controller.getView()).toMatchObject({
      error: 'Connection timed out - please check your internet connection and try again',
      roomState: 'reconnecting',
    });
    hang = false;
    await vi.advanceTimersByTimeAsync(2_999);
    expect(urls().filter((u) => u === '/api/usage/session/start')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(urls().filter((u) => u === '/api/usage/session/start')).toHaveLength(2);
    transports[0]?.succeed();
    await flush();
    expect(controller.getView()).toMatchObject({ connected: true, error: null });
  });

  it('a network failure of the token request reads as a network error', async () => {
    const handlers = okHandlers();
    delete handlers['/api/livekit-token'];
    const { controller } = setup(handlers);
    controller.configure(target);
    await flush();
    expect(controller.getView().error).toBe(
      'Network error - please check your internet connection',
    );
  });

  it('a transport timeout reads as timed out; a refused token as the default message', async () => {
    const { controller, transports } = setup(okHandlers());
    controller.configure(target);
    await flush();
    transports[0]?.fail(
      new VoiceTransportError(
        'timeout',
        'Connection timeout - please check your internet connection',
      ),
    );
    await flush();
    expect(controller.getView().error).toBe(
      'Connection timed out - please check your internet connection and try again',
    );
    await vi.advanceTimersByTimeAsync(3000);
    transports[1]?.fail(new VoiceTransportError('unauthorized', 'Voice token refused'));
    await flush();
    expect(controller.getView()).toMatchObject({
      error: 'Failed to connect to voice room',
      phase: 'stopped',
    });
  });

  it('a lost room ends its session and reconnects twice at most, 3 s then 6 s apart', async () => {
    const { controller, urls, transports } = setup(okHandlers());
    controller.configure(target);
    await flush();
    transports[0]?.succeed();
    await flush();
    transports[0]?.events.emit('disconnected', { reason: 'connection_lost' });
    await flush();
    expect(controller.getView()).toMatchObject({ connected: false, roomState: 'reconnecting' });
    expect(urls().filter((u) => u === '/api/usage/session/end')).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(3000);
    transports[1]?.fail(new VoiceTransportError('network', 'down'));
    await flush();
    await vi.advanceTimersByTimeAsync(5999);
    expect(transports).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(transports).toHaveLength(3);
    transports[2]?.fail(new VoiceTransportError('network', 'down'));
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transports).toHaveLength(3);
    expect(controller.getView()).toMatchObject({
      phase: 'stopped',
      error: 'Network error - please check your internet connection',
    });
    // Every started session was ended: the first room's and the two failed retries'.
    expect(urls().filter((u) => u === '/api/usage/session/end')).toHaveLength(3);
  });

  it('does not retry once disabled', async () => {
    const { controller, transports } = setup(okHandlers());
    controller.configure(target);
    await flush();
    transports[0]?.succeed();
    await flush();
    transports[0]?.events.emit('disconnected', { reason: 'connection_lost' });
    controller.configure(null);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(transports).toHaveLength(1);
    expect(controller.getView().roomState).toBe('disconnected');
  });

  it('a session end that fails is only logged', async () => {
    const warn = vi.mocked(console.warn);
    const handlers = okHandlers();
    handlers['/api/usage/session/end'] = () => json({}, 500);
    const { controller, transports } = setup(handlers);
    controller.configure(target);
    await flush();
    transports[0]?.succeed();
    await flush();
    controller.configure(null);
    await flush();
    expect(warn).toHaveBeenCalled();
    expect(controller.getView().error).toBeNull();
  });

  it('the microphone does nothing until connected, then follows the transport', async () => {
    const { controller, transports } = setup(okHandlers());
    await controller.setMicrophoneEnabled(true);
    controller.configure(target);
    await flush();
    await controller.setMicrophoneEnabled(true);
    expect(transports[0]?.micCalls).toEqual([]);
    transports[0]?.succeed();
    await flush();
    await controller.setMicrophoneEnabled(true);
    expect(transports[0]?.micCalls).toEqual([true]);
  });

  it('reports speaking user ids and forgets them when they leave', async () => {
    const { controller, transports } = setup(okHandlers());
    controller.configure(target);
    await flush();
    transports[0]?.succeed();
    await flush();
    const bob = { identity: 'u2-1-a', userId: 'u2', name: 'Bob' };
    transports[0]?.events.emit('speakingChanged', { participant: bob, speaking: true, level: 0.5 });
    expect([...controller.getView().speakingUserIds]).toEqual(['u2']);
    transports[0]?.events.emit('participantLeft', bob);
    expect(controller.getView().speakingUserIds.size).toBe(0);
  });
});
