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

export type JoinChannelDialogProps = {
  /** The channel picked under All Channels; null when closed. */
  channel: Channel | null;
  isJoining: boolean;
  onJoin: (channel: Channel) => void;
  onOpenChange: (open: boolean) => void;
};

/**
 * Asks before joining a channel the user is not in: picking it under All Channels makes
 * them a member everyone sees, so it must not happen on a stray tap.
 */
export function JoinChannelDialog({
  channel,
  isJoining,
  onJoin,
  onOpenChange,
}: JoinChannelDialogProps) {
  return (
    <Dialog open={channel !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Join {channel?.name}?</DialogTitle>
          <DialogDescription>
            You will become a member of this channel. Its members will see you, and you can go
            online in it.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button disabled={isJoining} onClick={() => channel && onJoin(channel)}>
            {isJoining ? <BusyIcon /> : null}
            Join Channel
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
