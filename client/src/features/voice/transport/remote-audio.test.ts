import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REMOTE_AUDIO_CONTAINER_ID, attachRemoteAudio, detachRemoteAudio } from './remote-audio';

beforeAll(() => {
  // jsdom has no media stack; the element only needs something to hold.
  if (!('MediaStream' in globalThis)) {
    vi.stubGlobal(
      'MediaStream',
      class {
        constructor(readonly tracks: unknown[]) {}
      },
    );
  }
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

const track = {} as MediaStreamTrack;
const tag = { identity: 'u-1-17000-abc', userId: 'u-1', mid: '2' };

describe('remote audio elements', () => {
  it('are attached to the remote-audio container and tagged with identity and user id', () => {
    document.body.innerHTML = `<div id="${REMOTE_AUDIO_CONTAINER_ID}"></div>`;
    const element = attachRemoteAudio(track, tag);
    const found = document.querySelector(`#${REMOTE_AUDIO_CONTAINER_ID} audio`);
    expect(found).toBe(element);
    expect(element.getAttribute('data-participant-identity')).toBe(tag.identity);
    expect(element.getAttribute('data-user-id')).toBe('u-1');
    detachRemoteAudio(element);
    expect(document.querySelector('audio')).toBeNull();
  });

  it('log "Audio container not found" when the page has no container', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    attachRemoteAudio(track, tag);
    expect(error).toHaveBeenCalledWith('Audio container not found');
  });
});
