import { useId } from 'react';
import { RogerBeepSwitch } from '../voice-preferences/RogerBeepSwitch';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { RadioCardGroup, type RadioCardOption } from '../../ui/RadioCardGroup';
import type { TalkMode } from './transmit-gate';
import { setHeadsetTalk, setTalkMode } from './talk-mode';
import { usePresence } from './usePresence';

const OPTIONS: RadioCardOption<TalkMode>[] = [
  { value: 'toggle', label: 'Toggle', help: 'ONLINE opens your microphone until you tap again.' },
  {
    value: 'hold',
    label: 'Hold to talk',
    help: 'ONLINE lets you hear; hold Space or the talk button to talk.',
  },
];

/**
 * Settings: choose between the spec's toggle and walkie-talkie hold-to-talk, and whether a
 * headset's play/pause button may mute or talk (off by default: a stray press must never open the
 * microphone in open talk mode), and the opt-in roger beep at the end of a hold-to-talk.
 */
export function TalkModeCard() {
  const { gate } = usePresence();
  const headsetId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Talk mode</CardTitle>
        <CardDescription>How the big button sends your voice.</CardDescription>
      </CardHeader>
      <CardContent>
        <RadioCardGroup
          legend="Talk mode"
          options={OPTIONS}
          value={gate.talkMode}
          onChange={setTalkMode}
        />
        <div className="mt-4 flex items-start gap-3 rounded-lg border border-border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
          <input
            id={headsetId}
            type="checkbox"
            checked={gate.headsetTalk}
            onChange={(event) => setHeadsetTalk(event.target.checked)}
            aria-describedby={`${headsetId}-help`}
            className="mt-1 accent-[var(--primary)]"
          />
          <label htmlFor={headsetId} className="cursor-pointer">
            <span className="block font-medium">Headset button</span>
            <span id={`${headsetId}-help`} className="block text-sm text-muted-foreground">
              A headset&apos;s play/pause button mutes and unmutes you (Toggle) or holds to talk
              (Hold to talk). Off unless you turn it on.
            </span>
          </label>
        </div>
        <RogerBeepSwitch />
      </CardContent>
    </Card>
  );
}
