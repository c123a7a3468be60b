import { useId, useState, type FormEvent } from 'react';
import type { Channel } from '../../../../protocol/channels';
import type { ChannelTalkMode } from '../../../../protocol/floor';
import {
  MAX_TRANSMISSION_SECONDS,
  maxTransmissionSecondsSchema,
} from '../../../../protocol/talk-mode';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { Label } from '../../ui/Label';
import { RadioCardGroup, type RadioCardOption } from '../../ui/RadioCardGroup';
import { SecondsField } from '../../ui/SecondsField';
import { TRANSMISSION_TEXTS } from '../transmissions/transmission-texts';
import { useSetTalkMode } from './useSetTalkMode';
import { SosChannelSettings } from '../sos/SosChannelSettings';

const OPTIONS: RadioCardOption<ChannelTalkMode>[] = [
  { value: 'open', label: 'Open', help: 'Everyone online can talk at once.' },
  {
    value: 'walkie',
    label: 'Walkie-talkie',
    help: 'One person talks at a time: hold to talk, and the others hear a busy tone. Admins can cut in.',
  },
];

export type TalkModeDialogProps = {
  channel: Channel;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** A channel admin chooses Open or Walkie-talkie, and the longest one transmission may last. */
export function TalkModeDialog({ channel, open, onOpenChange }: TalkModeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Talk mode</DialogTitle>
          <DialogDescription>How people talk in {channel.name}.</DialogDescription>
        </DialogHeader>
        {open ? <TalkModeForm channel={channel} onDone={() => onOpenChange(false)} /> : null}
        {open ? <SosChannelSettings channel={channel} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function TalkModeForm({ channel, onDone }: { channel: Channel; onDone: () => void }) {
  const [mode, setMode] = useState<ChannelTalkMode>(channel.talkMode);
  const [seconds, setSeconds] = useState(String(channel.maxTransmissionSeconds));
  const [keep, setKeep] = useState(channel.keepTransmissions);
  const [error, setError] = useState<string | null>(null);
  const save = useSetTalkMode(channel.id);
  const keepId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = maxTransmissionSecondsSchema.safeParse(Number(seconds));
    if (mode === 'walkie' && !parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid maximum transmission');
      return;
    }
    setError(null);
    save.mutate(
      {
        talkMode: mode,
        ...(parsed.success ? { maxTransmissionSeconds: parsed.data } : {}),
        ...(mode === 'walkie' ? { keepTransmissions: keep } : {}),
      },
      { onSuccess: onDone },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <RadioCardGroup legend="Talk mode" options={OPTIONS} value={mode} onChange={setMode} />
      {mode === 'walkie' ? (
        <div className="grid gap-2">
          <SecondsField
            label="Maximum transmission (seconds)"
            range={MAX_TRANSMISSION_SECONDS}
            value={seconds}
            onChange={setSeconds}
            help={`The floor is taken back after this long (${MAX_TRANSMISSION_SECONDS.min}–${MAX_TRANSMISSION_SECONDS.max} s).`}
            error={error}
          />
          <div className="mt-2 flex items-start gap-3">
            <input
              id={keepId}
              type="checkbox"
              checked={keep}
              onChange={(event) => setKeep(event.target.checked)}
              aria-describedby={`${keepId}-help`}
              className="mt-1 size-4 accent-[var(--primary)]"
            />
            <div className="grid gap-0.5">
              <Label htmlFor={keepId}>{TRANSMISSION_TEXTS.keep}</Label>
              <p id={`${keepId}-help`} className="text-xs text-muted-foreground">
                {TRANSMISSION_TEXTS.keepHelp}
              </p>
            </div>
          </div>
        </div>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <BusyIcon /> : null}
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}
