import { MicOff } from 'lucide-react';
import { useAuth } from '../auth/useAuth';
import { useCurrentChannel } from '../channels/current-channel';
import { useChannelMembers } from '../channels/useChannelMembers';
import { ADMIN_MUTE_TEXTS, useAdminMuter } from './admin-mute';

/**
 * On the user's own controls while a channel admin has muted them: who did it and what it means,
 * for as long as it lasts (the toast at the moment of the mute goes away; this does not).
 */
export function AdminMuteNote() {
  const { user } = useAuth();
  const { channelId } = useCurrentChannel();
  const members = useChannelMembers(channelId);
  const muter = useAdminMuter(channelId);
  const self = members.data?.find((member) => member.id === user?.id);
  return (
    <div role="status" className="w-full empty:hidden">
      {self?.isMutedInChannel ? (
        <p className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
          <MicOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning-text" />
          <span className="grid gap-0.5">
            <span className="font-medium">
              {muter ? ADMIN_MUTE_TEXTS.mutedBy(muter.name) : ADMIN_MUTE_TEXTS.mutedByUnknown}
            </span>
            <span className="text-muted-foreground">{ADMIN_MUTE_TEXTS.mutedDetail}</span>
          </span>
        </p>
      ) : null}
    </div>
  );
}
