// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { watchNetworkChanges, type NetworkChange } from './network-change';

class FakeConnection extends EventTarget {
  constructor(public type: string | undefined) {
    super();
  }
}

function watch(connection?: FakeConnection) {
  const win = new EventTarget();
  const seen: NetworkChange[] = [];
  const stop = watchNetworkChanges((change) => seen.push(change), { window: win, connection });
  return { win, seen, stop };
}

describe('network changes', () => {
  it('reports the browser going offline and coming back online', () => {
    const { win, seen } = watch();
    win.dispatchEvent(new Event('offline'));
    win.dispatchEvent(new Event('online'));
    expect(seen).toEqual(['offline', 'online']);
  });

  it('reports a new connection type (Wi-Fi to cellular), not a new speed estimate', () => {
    const connection = new FakeConnection('wifi');
    const { seen } = watch(connection);
    connection.dispatchEvent(new Event('change')); // effectiveType or rtt changed: same network
    connection.type = 'cellular';
    connection.dispatchEvent(new Event('change'));
    connection.type = 'none';
    connection.dispatchEvent(new Event('change'));
    expect(seen).toEqual(['changed']);
  });

  it('ignores connection changes where the browser does not say the type (desktop Chrome)', () => {
    const connection = new FakeConnection(undefined);
    const { seen } = watch(connection);
    connection.dispatchEvent(new Event('change'));
    expect(seen).toEqual([]);
  });

  it('stops listening when told', () => {
    const connection = new FakeConnection('wifi');
    const { win, seen, stop } = watch(connection);
    stop();
    win.dispatchEvent(new Event('online'));
    connection.type = 'cellular';
    connection.dispatchEvent(new Event('change'));
    expect(seen).toEqual([]);
  });
});
