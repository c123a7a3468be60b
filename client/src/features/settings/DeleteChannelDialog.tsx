import type { Channel } from '../../../../protocol/channels';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { useDeleteChannel } from './useDeleteChannel';

export type DeleteChannelDialogProps = {
  channel: Channel | null;
  onOpenChange: (open: boolean) => void;
};

/** Asks before deleting: a channel and its memberships cannot be brought back. */
export function DeleteChannelDialog({ channel, onOpenChange }: DeleteChannelDialogProps) {
  const deleteChannel = useDeleteChannel();
  return (
    <Dialog open={channel !== null} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>Delete {channel?.name}?</DialogTitle>
          <DialogDescription>
            Everyone in it loses the channel. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={deleteChannel.isPending}
            onClick={() => {
              if (channel)
                deleteChannel.mutate(channel.id, { onSuccess: () => onOpenChange(false) });
            }}
          >
            {deleteChannel.isPending ? <BusyIcon /> : null}
            Delete Channel
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
