import { useId, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { CHANNEL_NAME_MAX_LENGTH } from '../../../../protocol/channels';
import { hasVisibleText } from '../../../../protocol/text';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { useCreateChannel } from './useCreateChannel';

export type CreateChannelFormProps = {
  /** Called with the new channel once the server created it. */
  onCreated?: (channel: Channel) => void;
  /** The submit button's text. */
  submitLabel?: string;
};

/**
 * The channel name form of the Create New Channel dialog and of Settings (spec §5): the name is
 * trimmed, an empty one cannot be submitted. "Channel name cannot be empty" shows once the user
 * typed something blank or tried to submit — never in red on a form nobody has touched yet.
 */
export function CreateChannelForm({
  onCreated,
  submitLabel = 'Create Channel',
}: CreateChannelFormProps) {
  const id = useId();
  const [name, setName] = useState('');
  /** The user typed into the field or tried to submit: only then is emptiness their mistake. */
  const [dirty, setDirty] = useState(false);
  const createChannel = useCreateChannel();
  // Blank, or made only of what shows nothing (zero-width, bidi controls): the server refuses it too.
  const isEmpty = !hasVisibleText(name);
  const showEmpty = dirty && isEmpty;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDirty(true);
    if (isEmpty || createChannel.isPending) return;
    createChannel.mutate(name, {
      onSuccess: (channel) => {
        setName('');
        setDirty(false);
        onCreated?.(channel);
      },
    });
  };

  return (
    <form onSubmit={submit} className="grid gap-3" noValidate>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Channel name</Label>
        <Input
          id={`${id}-name`}
          value={name}
          maxLength={CHANNEL_NAME_MAX_LENGTH}
          placeholder="e.g. Family"
          autoComplete="off"
          aria-invalid={showEmpty || undefined}
          aria-describedby={showEmpty ? `${id}-error` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setDirty(true);
          }}
        />
        {showEmpty ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive-text">
            Channel name cannot be empty
          </p>
        ) : null}
      </div>
      <Button
        type="submit"
        disabled={isEmpty || createChannel.isPending}
        className="sm:justify-self-end"
      >
        {createChannel.isPending ? <BusyIcon /> : <Plus aria-hidden="true" />}
        {submitLabel}
      </Button>
    </form>
  );
}
