import { useId, useState, type FormEvent } from 'react';
import type { Channel } from '../../../../protocol/channels';
import { SOS_SECONDS, sosSecondsSchema } from '../../../../protocol/sos';
import { cn } from '../../lib/cn';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Label } from '../../ui/Label';
import { SecondsField } from '../../ui/SecondsField';
import { SOS_TEXTS } from './sos-texts';
import { useSetChannelSos } from './useSetChannelSos';

/**
 * A channel admin marks the channel an SOS channel (decision 050): the switch saves at once; the
 * SOS talk time (5–30 s) has its own Save. Group channels only: the caller leaves out direct
 * conversations.
 */
export function SosChannelSettings({
  channel,
}: {
  channel: Pick<Channel, 'id' | 'sos' | 'sosSeconds'>;
}) {
  const save = useSetChannelSos(channel.id);
  const [on, setOn] = useState(channel.sos);
  const [seconds, setSeconds] = useState(String(channel.sosSeconds || SOS_SECONDS.default));
  const [error, setError] = useState<string | null>(null);
  const switchId = useId();

  const toggle = () => {
    const next = !on;
    setOn(next);
    save.mutate({ sos: next }, { onError: () => setOn(!next) });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = sosSecondsSchema.safeParse(Number(seconds));
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid SOS talk time');
      return;
    }
    setError(null);
    save.mutate({ sos: true, sosSeconds: parsed.data });
  };

  return (
    <section aria-labelledby={`${switchId}-label`} className="grid gap-3 border-t pt-4">
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-0.5">
          <Label id={`${switchId}-label`} htmlFor={switchId}>
            {SOS_TEXTS.settingsSwitch}
          </Label>
          <p id={`${switchId}-help`} className="text-xs text-muted-foreground">
            {SOS_TEXTS.settingsHelp}
          </p>
        </div>
        <button
          id={switchId}
          type="button"
          role="switch"
          aria-checked={on}
          aria-describedby={`${switchId}-help`}
          disabled={save.isPending}
          onClick={toggle}
          className={cn(
            'relative mt-0.5 h-7 w-12 shrink-0 cursor-pointer rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-wait',
            on ? 'bg-destructive' : 'bg-input',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'absolute top-0.5 left-0.5 size-6 rounded-full bg-card shadow transition-transform',
              on && 'translate-x-5',
            )}
          />
        </button>
      </div>
      {on ? (
        <form onSubmit={onSubmit} noValidate className="grid gap-2">
          <SecondsField
            label={SOS_TEXTS.settingsSeconds}
            range={SOS_SECONDS}
            value={seconds}
            onChange={setSeconds}
            help={SOS_TEXTS.settingsSecondsHelp(SOS_SECONDS.min, SOS_SECONDS.max)}
            error={error}
            inputClassName="w-24"
            action={
              <Button type="submit" variant="outline" disabled={save.isPending}>
                {save.isPending ? <BusyIcon /> : null}
                {SOS_TEXTS.settingsSave}
              </Button>
            }
          />
        </form>
      ) : null}
    </section>
  );
}
