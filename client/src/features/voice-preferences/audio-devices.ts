/**
 * The microphone and speaker this browser uses for Chirp (Settings → Voice and devices). Device ids
 * belong to one browser profile and one site, so the choice is kept in localStorage, not on the
 * server. Nothing chosen means the system's default device. The voice providers read it whenever
 * they open the microphone or start playing audio.
 */
export type AudioDeviceChoice = { microphoneId: string | null; speakerId: string | null };

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

const MICROPHONE_KEY = 'chirp.microphoneId';
const SPEAKER_KEY = 'chirp.speakerId';

const listeners = new Set<() => void>();
let cached: AudioDeviceChoice | null = null;

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (private mode): the defaults apply
  }
}

function read(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) || null;
  } catch {
    return null;
  }
}

function write(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value) storage?.setItem(key, value);
    else storage?.removeItem(key);
  } catch {
    // Storage disabled: the choice lasts for this page only (the cache below keeps it).
  }
}

/** The current choice; the same object until it changes (a useSyncExternalStore snapshot). */
export function audioDeviceChoice(storage: Storage | null = browserStorage()): AudioDeviceChoice {
  cached ??= { microphoneId: read(storage, MICROPHONE_KEY), speakerId: read(storage, SPEAKER_KEY) };
  return cached;
}

export function chooseAudioDevices(
  change: Partial<AudioDeviceChoice>,
  storage: Storage | null = browserStorage(),
): void {
  const next = { ...audioDeviceChoice(storage), ...change };
  if ('microphoneId' in change) write(storage, MICROPHONE_KEY, next.microphoneId);
  if ('speakerId' in change) write(storage, SPEAKER_KEY, next.speakerId);
  cached = next;
  for (const listener of listeners) listener();
}

export function subscribeAudioDevices(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the in-memory copy (tests start from what their storage holds). */
export function resetAudioDeviceChoiceCache(): void {
  cached = null;
}

/**
 * The capture constraints with the chosen microphone. `ideal`, not `exact`: a headset that was
 * unplugged since must not stop the user from talking; the browser then falls back to the default.
 */
export function withChosenMicrophone(
  constraints: MediaTrackConstraints,
  microphoneId: string | null = audioDeviceChoice().microphoneId,
): MediaTrackConstraints {
  return microphoneId ? { ...constraints, deviceId: { ideal: microphoneId } } : constraints;
}

type SinkAudioContext = AudioContext & { setSinkId?: (sinkId: string) => Promise<void> };

/**
 * Whether this browser can send Chirp's audio to a chosen speaker: media elements need
 * `setSinkId`, and so does the AudioContext channel voices play through (remote-audio-gain.ts).
 */
export function speakerChoiceSupported(): boolean {
  if (typeof HTMLMediaElement === 'undefined' || !('setSinkId' in HTMLMediaElement.prototype)) return false;
  return typeof AudioContext === 'undefined' || 'setSinkId' in AudioContext.prototype;
}

/** Plays an element (a call's remote audio, a channel voice) on the chosen speaker, if any. */
export function playOnChosenSpeaker(
  element: HTMLMediaElement,
  speakerId: string | null = audioDeviceChoice().speakerId,
): void {
  if (!speakerId || typeof element.setSinkId !== 'function') return;
  element.setSinkId(speakerId).catch((error: unknown) => {
    console.warn('audio: the chosen speaker is not available, playing on the default one', error);
  });
}

/**
 * Keeps an AudioContext on the chosen speaker, now and whenever the choice changes (the default
 * speaker is the empty sink id). Returns the function that stops following.
 */
export function followChosenSpeaker(context: AudioContext): () => void {
  const sink = context as SinkAudioContext;
  if (typeof sink.setSinkId !== 'function') return () => undefined;
  let applied = '';
  const apply = () => {
    const wanted = audioDeviceChoice().speakerId ?? '';
    if (wanted === applied) return;
    applied = wanted;
    sink.setSinkId?.(wanted).catch((error: unknown) => {
      console.warn('audio: the chosen speaker is not available, playing on the default one', error);
    });
  };
  apply();
  return subscribeAudioDevices(apply);
}
