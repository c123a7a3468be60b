// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChannelSocket, socketUrl } from './channel-socket';
import { reconnectDelay } from './socket-connection';

/** A stand-in for the browser WebSocket at the network edge; the connection logic is real. */
class FakeSocket {
  static readonly OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event?: { code: number }) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverDrops() {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  serverSends(data: string) {
    this.onmessage?.({ data });
  }
}

describe('the /ws connection', () => {
  let sockets: FakeSocket[];
  const make = () =>
    createChannelSocket(() => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    });

  beforeEach(() => {
    sockets = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('window', { location: { protocol: 'http:', host: 'localhost' } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts connecting, then goes connected → disconnected, and sends only while open', () => {
    const connection = make();
    expect(connection.state).toBe('connecting');
    const states: string[] = [];
    connection.onState((s) => states.push(s));
    connection.open();
    expect(connection.send({ type: 'join_channel', channelId: 1 })).toBe(false);
    sockets[0]!.serverOpens();
    expect(connection.send({ type: 'join_channel', channelId: 1 })).toBe(true);
    expect(sockets[0]!.sent).toEqual(['{"type":"join_channel","channelId":1}']);
    connection.close();
    expect(states).toEqual(['connected', 'disconnected']);
  });

  it('reconnects with backoff after a drop, and not after close()', () => {
    const connection = make();
    connection.open();
    sockets[0]!.serverOpens();
    sockets[0]!.serverDrops();
    expect(connection.state).toBe('disconnected');
    vi.advanceTimersByTime(2000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.serverOpens();
    expect(connection.state).toBe('connected');
    connection.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('hands each handler its parsed message, and drops malformed or unknown ones', () => {
    const connection = make();
    const pokes: string[] = [];
    const updates: unknown[] = [];
    connection.on('poke', (m) => pokes.push(m.from.name));
    connection.on('member_update', (m) => updates.push(m.member.id));
    connection.open();
    sockets[0]!.serverOpens();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sockets[0]!.serverSends('{bad');
    sockets[0]!.serverSends('{"type":"member_update"}');
    sockets[0]!.serverSends('{"type":"surprise"}');
    sockets[0]!.serverSends('{"type":"poke","channelId":1,"from":{"id":"u2","name":"Bea"}}');
    expect(pokes).toEqual(['Bea']);
    expect(updates).toEqual([]);
    expect(error).toHaveBeenCalledTimes(3);
  });

  it('keeps delivering when one handler throws', () => {
    const connection = make();
    const got: string[] = [];
    connection.on('call_missed', () => {
      throw new Error('boom');
    });
    connection.on('call_missed', (m) => got.push(m.callId));
    connection.open();
    sockets[0]!.serverOpens();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sockets[0]!.serverSends('{"type":"call_missed","callId":"call-0001"}');
    expect(got).toEqual(['call-0001']);
  });

  it('retries a lost connection about every second, a deliberate close with a longer backoff', () => {
    const connection = make();
    connection.open();
    sockets[0]!.serverOpens();
    for (let i = 1; i <= 5; i++) {
      sockets.at(-1)!.serverDrops();
      vi.advanceTimersByTime(1250);
      expect(sockets).toHaveLength(i + 1);
    }
    sockets.at(-1)!.serverCloses(4429);
    vi.advanceTimersByTime(1250);
    expect(sockets).toHaveLength(6);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(7);
    connection.close();
  });

  it('reconnects at once when the browser says the network is back', () => {
    const network = new EventTarget();
    vi.stubGlobal('window', {
      location: { protocol: 'http:', host: 'localhost' },
      addEventListener: network.addEventListener.bind(network),
      removeEventListener: network.removeEventListener.bind(network),
    });
    const connection = make();
    connection.open();
    sockets[0]!.serverOpens();
    sockets[0]!.serverDrops();
    network.dispatchEvent(new Event('online'));
    expect(sockets).toHaveLength(2);
    // Already connecting: another `online` opens no second socket.
    network.dispatchEvent(new Event('online'));
    expect(sockets).toHaveLength(2);
    connection.close();
    network.dispatchEvent(new Event('online'));
    expect(sockets).toHaveLength(2);
  });

  it('backs off from about 1 s to at most about 15 s', () => {
    expect(reconnectDelay(0, () => 0.5, 'lost')).toBe(1000);
    expect(reconnectDelay(6, () => 1, 'lost')).toBe(1250);
    expect(reconnectDelay(0, () => 0.5)).toBe(1000);
    expect(reconnectDelay(3, () => 0.5)).toBe(8000);
    expect(reconnectDelay(10, () => 0.5)).toBe(15_000);
    expect(reconnectDelay(10, () => 1)).toBe(18_750);
  });

  it('builds ws and wss URLs with the protocol version', () => {
    expect(socketUrl({ protocol: 'http:', host: 'localhost:5000' })).toBe(
      'ws://localhost:5000/ws?v=1',
    );
    expect(socketUrl({ protocol: 'https:', host: 'chirp.example' })).toBe(
      'wss://chirp.example/ws?v=1',
    );
  });
});
