import { Suspense, lazy, useState } from 'react';
import { Share2 } from 'lucide-react';
import { toast } from '../../ui/toast-store';
import { useCurrentChannel } from '../channels/current-channel';
import { useConversation } from '../channels/useConversations';
import { TopBarButton } from '../shell/TopBarButton';

// The dialog's code loads when it first opens.
const ShareDialog = lazy(() => import('./ShareDialog').then((m) => ({ default: m.ShareDialog })));

/** The top bar's Share (spec §2): the invite-link dialog, or the spec's note without a channel. */
export function ShareButton() {
  const { channelId } = useCurrentChannel();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const conversation = useConversation(channelId);

  const openDialog = () => {
    if (channelId === null) {
      toast({
        title: 'No channel selected',
        description: 'Please select a channel first before inviting members',
      });
      return;
    }
    if (conversation) {
      toast({
        title: 'Nothing to share',
        description: 'A conversation with one person has no invite link',
      });
      return;
    }
    setUsed(true);
    setOpen(true);
  };

  return (
    <>
      <TopBarButton icon={Share2} label="Share" onClick={openDialog} aria-haspopup="dialog" />
      {used && channelId !== null ? (
        <Suspense fallback={null}>
          <ShareDialog channelId={channelId} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
