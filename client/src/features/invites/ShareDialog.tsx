import { Check, Copy, Share2 } from 'lucide-react';
import { Button } from '../../ui/Button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { useAuth } from '../auth/useAuth';
import { canManageChannel } from '../channels/channel-permissions';
import { useChannel } from '../channels/useChannel';
import { useCopyText } from './useCopyText';
import { LiveInvitesList } from './LiveInvitesList';
import { useInviteLink } from './useInviteLink';

export type ShareDialogProps = {
  channelId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The invite-link dialog with Share (native sheet) and Copy Link (spec §2). */
export function ShareDialog({ channelId, open, onOpenChange }: ShareDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open ? <ShareContent channelId={channelId} /> : null}</DialogContent>
    </Dialog>
  );
}

function ShareContent({ channelId }: { channelId: number | null }) {
  const channel = useChannel(channelId);
  const { user } = useAuth();
  const link = useInviteLink(channelId, true);
  const isAdmin = channel !== undefined && canManageChannel(channel, user);
  const { copied, copy } = useCopyText();
  const url = link.data?.inviteUrl ?? '';

  // Without a native share sheet (most desktops) Share falls back to copying the link.
  const share = async () => {
    if (typeof navigator.share !== 'function') return copy(url);
    try {
      await navigator.share({ title: `Join ${channel?.name ?? 'my channel'} on Chirp`, url });
    } catch (error) {
      // Closing the share sheet rejects with AbortError; that is the user's choice, not a failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast({
        title: 'Share failed',
        description: 'Please copy the link instead',
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Invite to {channel?.name ?? 'channel'}</DialogTitle>
        <DialogDescription>
          Anyone with this link can join the channel after signing in. It works for 7 days.
        </DialogDescription>
      </DialogHeader>
      {link.isLoading ? (
        <Spinner label="Creating invite link" className="py-2" />
      ) : link.isError ? (
        <p role="alert" className="text-sm text-destructive-text">
          {link.error.message}
        </p>
      ) : (
        <div className="grid gap-2">
          <Label htmlFor="invite-link">Invite link</Label>
          <Input
            id="invite-link"
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="font-mono text-xs sm:text-xs"
          />
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" disabled={!url} onClick={() => void share()}>
          <Share2 aria-hidden="true" />
          Share
        </Button>
        <Button disabled={!url} onClick={() => void copy(url)}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied!' : 'Copy Link'}
        </Button>
      </div>
      {isAdmin && channelId !== null ? (
        // Listed once this dialog's own link exists, so it is among them.
        <LiveInvitesList channelId={channelId} enabled={link.isSuccess} />
      ) : null}
    </>
  );
}
