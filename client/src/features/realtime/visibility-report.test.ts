import { describe, expect, it } from 'vitest';
import type { SocketState } from './socket-connection';
import { reportVisibility } from './visibility-report';

class FakePage extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
}

describe('reportVisibility', () => {
  it('says whether the page is visible on every connect and on every change, until stopped', () => {
    const sent: unknown[] = [];
    const listeners = new Set<(state: SocketState) => void>();
    const page = new FakePage();
    const stop = reportVisibility({
      send: (message) => sent.push(message) > 0,
      onState: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      page,
    });
    const connect = () => listeners.forEach((listener) => listener('connected'));

    connect();
    page.visibilityState = 'hidden';
    page.dispatchEvent(new Event('visibilitychange'));
    listeners.forEach((listener) => listener('disconnected'));
    connect();
    expect(sent).toEqual([
      { type: 'visibility', visible: true },
      { type: 'visibility', visible: false },
      { type: 'visibility', visible: false },
    ]);

    stop();
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    connect();
    expect(sent).toHaveLength(3);
  });
});
