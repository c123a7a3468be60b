import { withChosenMicrophone } from '../../voice-preferences/audio-devices';

/** Spec §9: capture with echo cancellation, noise suppression and auto gain on. */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/** Opens the microphone chosen in Settings (the system default when none is). */
export async function captureMicrophone(getUserMedia: GetUserMedia): Promise<MediaStreamTrack> {
  const stream = await getUserMedia({ audio: withChosenMicrophone(MICROPHONE_CONSTRAINTS), video: false });
  const [track] = stream.getAudioTracks();
  if (!track) throw new Error('No microphone track');
  return track;
}
