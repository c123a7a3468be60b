import { Contact } from 'lucide-react';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { hasContactPicker } from './contact-picker';
import { useContactPickerInvite } from './useContactPickerInvite';

/**
 * Invite from the device's contacts into the current channel (spec §2 bottom bar), where the
 * browser has a contact picker; elsewhere Share's invite link is the way to invite.
 */
export function InviteButton({ channelId }: { channelId: number | null }) {
  if (!hasContactPicker()) return null;
  return <ContactPickerInviteButton channelId={channelId} />;
}

function ContactPickerInviteButton({ channelId }: { channelId: number | null }) {
  const invite = useContactPickerInvite(channelId);
  return (
    <Button size="sm" variant="outline" disabled={invite.isPending} onClick={() => invite.mutate()}>
      {invite.isPending ? <BusyIcon /> : <Contact aria-hidden="true" />}
      Invite
    </Button>
  );
}
