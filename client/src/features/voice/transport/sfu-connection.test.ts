import { describe, expect, it } from 'vitest';
import { SfuConnection, type SfuConnectionHooks } from './sfu-connection';

/** A signalling socket the test drives by hand: it opens when told and records what was sent. */
class ScriptedSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  readonly sent: string[] = [];
  readyState = 0;
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
}

const hooks: SfuConnectionHooks = {
  onRoomMessage: () => undefined,
  onRemoteTrack: () => undefined,
  onTracksChanged: () => undefined,
  onPeerState: () => undefined,
  onSocketClosed: () => undefined,
  microphone: () => undefined,
};

describe('SfuConnection progress (what the log says when a join times out)', () => {
  it('tells a socket that never opened from a join the server never answered', () => {
    const socket = new ScriptedSocket();
    const connection = new SfuConnection(
      'ws://sfu.test/voice',
      'token',
      hooks,
      () => socket as unknown as WebSocket,
    );
    void connection.open('join').catch(() => undefined);
    expect(connection.describeProgress()).toBe('opening the signalling socket; no peer yet');

    socket.readyState = 1;
    socket.onopen?.();
    expect(JSON.parse(socket.sent[0]!)).toMatchObject({ type: 'join', token: 'token' });
    expect(connection.describeProgress()).toBe('join sent, waiting for "joined"; no peer yet');
  });
});
