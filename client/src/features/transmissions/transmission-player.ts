import { voiceAudioContext } from '../voice/audio-context';

export type PlaybackRate = 1 | 1.5;

export interface QueuedTransmission {
  id: string;
  speakerId: string;
}

export type PlayerSnapshot = {
  /** What is queued, in play order; `index` is the one loaded now. */
  queue: readonly QueuedTransmission[];
  index: number;
  status: 'idle' | 'loading' | 'playing' | 'paused' | 'error';
  rate: PlaybackRate;
};

export interface PlayerDeps {
  /** The transmission's Ogg Opus audio. */
  load: (id: string, signal: AbortSignal) => Promise<Blob>;
  /** How loud the speaker plays for this listener (their per-member volume), as a gain. */
  gainOf: (speakerId: string) => number;
}

const IDLE: PlayerSnapshot = { queue: [], index: 0, status: 'idle', rate: 1 };

/**
 * Plays kept transmissions one after another through one audio element (no controls of its own:
 * the dialog's Play all, Pause/Resume and Stop drive it), routed through the voice AudioContext so the speaker's per-member volume applies, at 1×
 * or 1.5× (pitch kept). Each file is fetched as a blob, so seeking never goes back to the network.
 */
export class TransmissionPlayer {
  private snapshot: PlayerSnapshot = IDLE;
  private readonly listeners = new Set<() => void>();
  private objectUrl: string | null = null;
  private loading: AbortController | null = null;
  private gain: GainNode | null = null;
  private readonly off: () => void;

  constructor(
    private readonly audio: HTMLAudioElement,
    private readonly deps: PlayerDeps,
  ) {
    const onEnded = () => this.next();
    const onPlay = () => this.set({ status: 'playing' });
    const onPause = () => {
      if (this.snapshot.status === 'playing' && !audio.ended) this.set({ status: 'paused' });
    };
    const onError = () => {
      if (this.snapshot.status !== 'idle') this.set({ status: 'error' });
    };
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('error', onError);
    this.off = () => {
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('error', onError);
    };
  }

  getSnapshot = (): PlayerSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Plays `queue` from `start` on, in order. */
  play(queue: readonly QueuedTransmission[], start = 0): void {
    if (queue.length === 0) return;
    this.set({ queue: [...queue], index: start });
    this.loadCurrent();
  }

  /** Holds the one playing where it is; `resume` goes on from there. */
  pause(): void {
    if (this.snapshot.status === 'playing') this.audio.pause();
  }

  resume(): void {
    if (this.snapshot.status !== 'paused') return;
    this.audio.play().catch(() => this.set({ status: 'error' }));
  }

  setRate(rate: PlaybackRate): void {
    this.audio.playbackRate = rate;
    this.audio.defaultPlaybackRate = rate;
    this.set({ rate });
  }

  stop(): void {
    this.loading?.abort();
    this.audio.pause();
    this.release();
    this.set({ ...IDLE, rate: this.snapshot.rate });
  }

  dispose(): void {
    this.stop();
    this.off();
    this.gain?.disconnect();
    this.listeners.clear();
  }

  private next(): void {
    const { index, queue } = this.snapshot;
    if (index + 1 >= queue.length) {
      this.release();
      this.set({ status: 'idle', queue: [], index: 0 });
      return;
    }
    this.set({ index: index + 1 });
    this.loadCurrent();
  }

  private loadCurrent(): void {
    const item = this.snapshot.queue[this.snapshot.index];
    if (!item) return;
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.set({ status: 'loading' });
    this.route(item.speakerId);
    this.deps
      .load(item.id, controller.signal)
      .then(async (blob) => {
        if (controller.signal.aborted) return;
        this.release();
        this.objectUrl = URL.createObjectURL(blob);
        this.audio.src = this.objectUrl;
        this.audio.playbackRate = this.snapshot.rate;
        this.audio.defaultPlaybackRate = this.snapshot.rate;
        await this.audio.play();
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not play a transmission', error);
        this.set({ status: 'error' });
      });
  }

  /** The element's sound goes through a gain node once the voice AudioContext exists. */
  private route(speakerId: string): void {
    const context = voiceAudioContext();
    if (!context) return;
    if (!this.gain) {
      const source = context.createMediaElementSource(this.audio);
      this.gain = context.createGain();
      source.connect(this.gain);
      this.gain.connect(context.destination);
    }
    this.gain.gain.value = this.deps.gainOf(speakerId);
  }

  private release(): void {
    if (this.objectUrl) URL.revokeObjectURL(this.objectUrl);
    this.objectUrl = null;
  }

  private set(patch: Partial<PlayerSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
