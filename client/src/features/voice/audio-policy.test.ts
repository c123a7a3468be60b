import { describe, expect, it } from 'vitest';
import { applyAudioPolicy, shouldMute, watchRemoteAudio } from './audio-policy';

function audio(userId: string): HTMLAudioElement {
  const element = document.createElement('audio');
  element.dataset.userId = userId;
  return element;
}

describe('audio policy', () => {
  const hidden = new Set(['muted-user', 'blocked-user']);

  it('mutes hidden users, and everyone while the channel is muted', () => {
    expect(shouldMute('muted-user', { channelMuted: false, hiddenUserIds: hidden })).toBe(true);
    expect(shouldMute('friend', { channelMuted: false, hiddenUserIds: hidden })).toBe(false);
    expect(shouldMute('friend', { channelMuted: true, hiddenUserIds: hidden })).toBe(true);
    expect(shouldMute(undefined, { channelMuted: false, hiddenUserIds: hidden })).toBe(false);
  });

  it('applies to the elements of a container and undoes it', () => {
    const container = document.createElement('div');
    const [a, b] = [audio('muted-user'), audio('friend')];
    container.append(a, b);
    applyAudioPolicy(container, { channelMuted: false, hiddenUserIds: hidden });
    expect([a.muted, b.muted]).toEqual([true, false]);
    applyAudioPolicy(container, { channelMuted: false, hiddenUserIds: new Set() });
    expect([a.muted, b.muted]).toEqual([false, false]);
  });

  it('mutes an element the moment it is added to #remote-audio', async () => {
    const container = document.createElement('div');
    container.id = 'remote-audio';
    document.body.append(container);
    const watcher = watchRemoteAudio(() => ({ channelMuted: false, hiddenUserIds: hidden }));
    const late = audio('blocked-user');
    container.append(late);
    await Promise.resolve();
    expect(late.muted).toBe(true);
    watcher.stop();
    container.remove();
  });
});
