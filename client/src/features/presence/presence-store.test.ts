// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { PresenceEffect } from './presence-state';
import { PresenceStore } from './presence-store';

describe('PresenceStore', () => {
  it('runs effects in order and notifies only on change', () => {
    const store = new PresenceStore();
    const effects: PresenceEffect[] = [];
    let notified = 0;
    store.subscribe(() => (notified += 1));
    const detach = store.attach((effect) => effects.push(effect));
    store.dispatch({ type: 'socket', open: true });
    store.dispatch({ type: 'select_channel', channelId: 4 });
    store.dispatch({ type: 'select_channel', channelId: 4 });
    store.dispatch({ type: 'toggle_online' });
    expect(notified).toBe(3);
    expect(
      effects.map((e) =>
        e.kind === 'send' ? e.message.type : e.kind === 'toast' ? e.toast.title : e.kind,
      ),
    ).toEqual(['join_channel', 'join_channel', 'Online']);
    detach();
    store.dispatch({ type: 'toggle_online' });
    expect(effects).toHaveLength(3);
    expect(store.state.online).toBe(false);
  });
});
