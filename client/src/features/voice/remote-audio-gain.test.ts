import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebAudioOutput } from './remote-audio-gain';

/*
 * jsdom has neither MediaStream nor Web Audio, so the browser edge is faked here: just enough of a
 * graph to see what is connected, in which order, at which gain. The real path is measured in
 * Chromium by e2e/member-volume.spec.ts.
 */
class FakeStream {
  constructor(private readonly audioTracks = 1) {}
  getAudioTracks() {
    return Array.from({ length: this.audioTracks }, () => ({}));
  }
}

type Event = string;
class FakeContext {
  readonly events: Event[] = [];
  readonly destination = { name: 'destination' };
  currentTime = 3;
  private count = 0;
  createMediaStreamSource(stream: FakeStream) {
    const id = `source${++this.count}`;
    return this.node(id, { stream });
  }
  createGain() {
    const id = `gain${++this.count}`;
    const gain = {
      value: 1,
      cancelScheduledValues: () => undefined,
      setTargetAtTime: (value: number) => {
        this.events.push(`${id} target ${value}`);
      },
    };
    return this.node(id, { gain });
  }
  private node<T extends object>(id: string, extra: T) {
    const events = this.events;
    const node = {
      id,
      context: this,
      connect(target: { id?: string; name?: string }) {
        const gain = (extra as { gain?: { value: number } }).gain;
        events.push(`${id}${gain ? `(${gain.value})` : ''} -> ${target.id ?? target.name}`);
        return target;
      },
      disconnect() {
        events.push(`${id} disconnected`);
      },
      ...extra,
    };
    return node;
  }
}

function element(stream: unknown): HTMLAudioElement {
  const audio = document.createElement('audio');
  Object.defineProperty(audio, 'srcObject', { value: stream, writable: true });
  return audio;
}

beforeEach(() => vi.stubGlobal('MediaStream', FakeStream));
afterEach(() => vi.unstubAllGlobals());

describe('per-member gain on remote audio', () => {
  it('plays the stream through its own gain, set before it is heard, with the element at 0', () => {
    const ctx = new FakeContext();
    const output = new WebAudioOutput(() => ctx as unknown as AudioContext);
    const audio = element(new FakeStream());
    output.setGain(audio, 0);
    expect(ctx.events).toEqual(['source1 -> gain2', 'gain2(0) -> destination', 'gain2 target 0']);
    expect(audio.volume).toBe(0);

    output.setGain(audio, 2);
    expect(ctx.events.slice(3)).toEqual(['gain2 target 2']);
  });

  it('rebuilds when the element gets a new stream and lets go of elements that left', () => {
    const ctx = new FakeContext();
    const output = new WebAudioOutput(() => ctx as unknown as AudioContext);
    const audio = element(new FakeStream());
    output.setGain(audio, 1);
    audio.srcObject = new FakeStream() as unknown as MediaStream;
    output.setGain(audio, 1);
    expect(ctx.events).toContain('source1 disconnected');
    expect(ctx.events).toContain('source3 -> gain4');
    output.keepOnly(new Set());
    expect(ctx.events).toContain('source3 disconnected');
  });

  it('falls back to the element volume (at most 100 %) without Web Audio or audio tracks', () => {
    const none = new WebAudioOutput(() => null);
    const audio = element(new FakeStream());
    none.setGain(audio, 2);
    expect(audio.volume).toBe(1);
    none.setGain(audio, 0.4);
    expect(audio.volume).toBe(0.4);

    const ctx = new FakeContext();
    const silentStream = element(new FakeStream(0));
    new WebAudioOutput(() => ctx as unknown as AudioContext).setGain(silentStream, 0.5);
    expect(silentStream.volume).toBe(0.5);
    expect(ctx.events).toEqual([]);
  });
});
