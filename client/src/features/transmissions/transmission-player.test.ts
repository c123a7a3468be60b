import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TransmissionPlayer } from './transmission-player';

/** jsdom's media elements cannot play: this one "plays" whatever src it is given until told it ended. */
class FakeAudio extends EventTarget {
  src = '';
  playbackRate = 1;
  defaultPlaybackRate = 1;
  ended = false;
  played: string[] = [];
  play(): Promise<void> {
    this.ended = false;
    this.played.push(this.src);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  }
  pause(): void {
    this.dispatchEvent(new Event('pause'));
  }
  finish(): void {
    this.ended = true;
    this.dispatchEvent(new Event('pause'));
    this.dispatchEvent(new Event('ended'));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TransmissionPlayer', () => {
  let audio: FakeAudio;
  let loaded: string[];
  let player: TransmissionPlayer;
  beforeEach(() => {
    audio = new FakeAudio();
    loaded = [];
    let n = 0;
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:${++n}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    player = new TransmissionPlayer(audio as unknown as HTMLAudioElement, {
      load: (id) => {
        loaded.push(id);
        return Promise.resolve(new Blob([id]));
      },
      gainOf: () => 1,
    });
  });
  afterEach(() => {
    player.dispose();
    vi.restoreAllMocks();
  });

  it('plays the queue in order from the chosen one, each after the last ends, then stops', async () => {
    const queue = ['a', 'b', 'c'].map((id) => ({ id, speakerId: 'ava' }));
    player.play(queue, 1);
    await settle();
    expect(loaded).toEqual(['b']);
    expect(player.getSnapshot()).toMatchObject({ index: 1, status: 'playing' });
    audio.finish();
    await settle();
    expect(loaded).toEqual(['b', 'c']);
    expect(player.getSnapshot()).toMatchObject({ index: 2, status: 'playing' });
    audio.finish();
    await settle();
    expect(player.getSnapshot().status).toBe('idle');
    expect(audio.played).toHaveLength(2);
  });

  it('keeps the chosen speed for every item', async () => {
    player.setRate(1.5);
    player.play([
      { id: 'a', speakerId: 'ava' },
      { id: 'b', speakerId: 'ava' },
    ]);
    await settle();
    expect(audio.playbackRate).toBe(1.5);
    audio.finish();
    await settle();
    expect(audio.playbackRate).toBe(1.5);
    expect(player.getSnapshot().rate).toBe(1.5);
  });

  it('says so when a transmission cannot be loaded, and a pause is a pause', async () => {
    const failing = new TransmissionPlayer(audio as unknown as HTMLAudioElement, {
      load: () => Promise.reject(new Error('404')),
      gainOf: () => 1,
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    failing.play([{ id: 'gone', speakerId: 'ava' }]);
    await settle();
    expect(failing.getSnapshot().status).toBe('error');
    failing.dispose();

    player.play([{ id: 'a', speakerId: 'ava' }]);
    await settle();
    audio.pause();
    expect(player.getSnapshot().status).toBe('paused');
  });

  it('pauses and resumes the one playing where it was, with its own buttons', async () => {
    player.play(['a', 'b'].map((id) => ({ id, speakerId: 'ava' })));
    await settle();
    player.pause();
    expect(player.getSnapshot()).toMatchObject({ status: 'paused', index: 0 });
    player.resume();
    await settle();
    expect(player.getSnapshot()).toMatchObject({ status: 'playing', index: 0 });
    // The same file goes on: nothing was loaded again.
    expect(loaded).toEqual(['a']);
  });
});
