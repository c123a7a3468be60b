import { playOnChosenSpeaker } from '../../voice-preferences/audio-devices';

/** The page container remote audio elements live in (spec §2); the app shell renders it. */
export const REMOTE_AUDIO_CONTAINER_ID = 'remote-audio';

export interface RemoteAudioTag {
  identity: string;
  userId: string;
  mid: string;
}

/**
 * Creates a playing <audio> element for one remote talker, tagged so the app can mute it by user
 * (admin mute, block list, channel mute) and tests can find it.
 */
export function attachRemoteAudio(
  track: MediaStreamTrack,
  tag: RemoteAudioTag,
  doc: Document = document,
): HTMLAudioElement {
  const element = doc.createElement('audio');
  element.autoplay = true;
  element.dataset.participantIdentity = tag.identity;
  element.dataset.userId = tag.userId;
  element.dataset.mid = tag.mid;
  element.srcObject = new MediaStream([track]);
  playOnChosenSpeaker(element);
  const container = doc.getElementById(REMOTE_AUDIO_CONTAINER_ID);
  if (container) container.appendChild(element);
  else console.error('Audio container not found');
  // Autoplay may be refused before a user gesture; the app's next gesture retries via resumeRemoteAudio.
  // (Some DOM implementations, such as test ones, return nothing here.)
  const playing = element.play() as Promise<void> | undefined;
  playing?.catch(() => undefined);
  return element;
}

export function detachRemoteAudio(element: HTMLAudioElement): void {
  element.pause();
  element.srcObject = null;
  element.remove();
}
