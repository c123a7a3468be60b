import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import type { TalkMode } from './online-state';
import { setTalkMode } from './talk-mode';
import { usePresence } from './usePresence';

const OPTIONS: { mode: TalkMode; label: string; help: string }[] = [
  { mode: 'toggle', label: 'Toggle', help: 'ONLINE opens your microphone until you tap again.' },
  { mode: 'hold', label: 'Hold to talk', help: 'ONLINE lets you hear; hold Space or the big button to talk.' },
];

/** Settings: choose between the spec's toggle and walkie-talkie hold-to-talk. */
export function TalkModeCard() {
  const { talkMode } = usePresence();
  const name = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Talk mode</CardTitle>
        <CardDescription>How the big button sends your voice.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">Talk mode</legend>
          {OPTIONS.map((option) => (
            <label
              key={option.mode}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
            >
              <input
                type="radio"
                name={name}
                value={option.mode}
                checked={talkMode === option.mode}
                onChange={() => setTalkMode(option.mode)}
                className="mt-1 accent-[var(--primary)]"
              />
              <span>
                <span className="block font-medium">{option.label}</span>
                <span className="block text-sm text-muted-foreground">{option.help}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  );
}
