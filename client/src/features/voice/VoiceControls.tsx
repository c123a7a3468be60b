import { MuteChannelButton, MuteSelfButton } from './MuteButtons';
import { BackgroundMusicTip, VoiceErrorNote } from './VoiceNotes';

/** Under the ONLINE button: the room's error, the mute toggles and the background-music tip. */
export function VoiceControls() {
  return (
    <div className="flex w-full max-w-md flex-col items-center gap-3">
      <VoiceErrorNote />
      <div className="flex flex-wrap items-center justify-center gap-3">
        <MuteSelfButton />
        <MuteChannelButton />
      </div>
      <BackgroundMusicTip />
    </div>
  );
}
