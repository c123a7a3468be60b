import { Headphones, HeadphoneOff, Mic, MicOff } from 'lucide-react';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { isSelfMuted } from '../presence/transmit-gate';
import { toggleSelfMute, usePresence } from '../presence/usePresence';
import { audioPolicyStore, useChannelMuted } from './audio-policy-store';

/** Mute Self (spec §2): disabled while offline; presence toasts Self Muted / Self Unmuted. */
export function MuteSelfButton() {
  const { online, gate } = usePresence();
  const selfMuted = isSelfMuted(gate);
  return (
    <Button variant="outline" disabled={!online} aria-pressed={selfMuted} onClick={toggleSelfMute}>
      {selfMuted ? <MicOff aria-hidden="true" /> : <Mic aria-hidden="true" />}
      Mute Self
    </Button>
  );
}

/** Spec §4: toggles every channel audio element in #remote-audio. */
export function toggleChannelMute(): void {
  const muted = !audioPolicyStore.isChannelMuted();
  audioPolicyStore.setChannelMuted(muted);
  toast({ title: muted ? 'Channel Muted' : 'Channel Unmuted' });
}

/** Mute Channel (spec §2): disabled while offline. */
export function MuteChannelButton() {
  const { online } = usePresence();
  const channelMuted = useChannelMuted();
  return (
    <Button
      variant="outline"
      disabled={!online}
      aria-pressed={channelMuted}
      onClick={toggleChannelMute}
    >
      {channelMuted ? <HeadphoneOff aria-hidden="true" /> : <Headphones aria-hidden="true" />}
      Mute Channel
    </Button>
  );
}
