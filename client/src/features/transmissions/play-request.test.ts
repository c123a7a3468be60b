import { describe, expect, it } from 'vitest';
import { endPlay, pendingPlay, playNow, requestPlay, subscribePlayRequests } from './play-request';

describe('a tapped transmission', () => {
  it("keeps its channel's list open until closed, and plays once", () => {
    let changes = 0;
    const off = subscribePlayRequests(() => changes++);
    requestPlay({ channelId: 4, transmissionId: 't1' });
    expect(pendingPlay()).toMatchObject({ channelId: 4, transmissionId: 't1' });
    expect(playNow(5)).toBeNull();
    expect(playNow(4)).toMatchObject({ transmissionId: 't1' });
    // Re-rendering the open list does not play it again; the list stays open for it.
    expect(playNow(4)).toBeNull();
    expect(pendingPlay()?.channelId).toBe(4);
    endPlay(4);
    expect(pendingPlay()).toBeNull();
    expect(changes).toBe(2);
    off();
  });
});
