import { Suspense, lazy, useId, useState } from 'react';
import { Share2 } from 'lucide-react';
import { useCurrentChannel } from '../channels/current-channel';
import { useConversation } from '../channels/useConversations';
import { TopBarButton } from '../shell/TopBarButton';

// The dialog's code loads when it first opens.
const ShareDialog = lazy(() => import('./ShareDialog').then((m) => ({ default: m.ShareDialog })));

/** Why Share has nothing to share (decision 048: it says so on the button, not in a toast). */
export const SHARE_UNAVAILABLE = {
  noChannel: 'Select a channel to share its invite link',
  conversation: 'A conversation with one person has no invite link',
} as const;

/**
 * The top bar's Share (spec §2): the invite-link dialog. Without a channel, or in a direct
 * conversation, it is disabled and its tooltip and description say why.
 */
export function ShareButton() {
  const { channelId } = useCurrentChannel();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const conversation = useConversation(channelId);
  const reasonId = useId();
  const unavailable =
    channelId === null
      ? SHARE_UNAVAILABLE.noChannel
      : conversation
        ? SHARE_UNAVAILABLE.conversation
        : null;

  return (
    <>
      <TopBarButton
        icon={Share2}
        label="Share"
        hint={unavailable ?? undefined}
        aria-haspopup="dialog"
        aria-disabled={unavailable ? true : undefined}
        aria-describedby={unavailable ? reasonId : undefined}
        onClick={() => {
          if (unavailable) return;
          setUsed(true);
          setOpen(true);
        }}
      />
      {unavailable ? (
        <span id={reasonId} hidden>
          {unavailable}
        </span>
      ) : null}
      {used && channelId !== null ? (
        <Suspense fallback={null}>
          <ShareDialog channelId={channelId} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
