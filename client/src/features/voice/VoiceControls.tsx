import { AdminMuteNote } from '../members/AdminMuteNote';
import { MuteChannelButton, MuteSelfButton } from './MuteButtons';
import { BackgroundMusicTip, VoiceErrorNote } from './VoiceNotes';

/**
 * Under the ONLINE button: the room's error, who muted the user (an admin), the mute toggles and the
 * background-music tip.
 */
export function VoiceControls() {
  return (
    <div className="flex w-full max-w-md flex-col items-center gap-3">
      <VoiceErrorNote />
      <AdminMuteNote />
      <div className="flex flex-wrap items-center justify-center gap-3">
        <MuteSelfButton />
        <MuteChannelButton />
      </div>
      <BackgroundMusicTip />
    </div>
  );
}
