import type { ChannelMember } from '../../../../protocol/channels';
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

export const REMOVE_TEXTS = {
  title: (name: string) => `Remove ${name}?`,
  description: (channel: string) =>
    `They leave ${channel} at once and stop hearing it. You can undo this for a few seconds.`,
  confirm: 'Remove',
  cancel: 'Cancel',
} as const;

export type RemoveMemberDialogProps = {
  /** The member to remove; null closes the dialog. */
  member: ChannelMember | null;
  channelName: string;
  removing: boolean;
  onConfirm: (member: ChannelMember) => void;
  onOpenChange: (open: boolean) => void;
};

/** Asks before removing a member from the channel (a removal also ends their voice at once). */
export function RemoveMemberDialog({
  member,
  channelName,
  removing,
  onConfirm,
  onOpenChange,
}: RemoveMemberDialogProps) {
  return (
    <Dialog open={member !== null} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>{REMOVE_TEXTS.title(member?.name ?? '')}</DialogTitle>
          <DialogDescription>{REMOVE_TEXTS.description(channelName)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{REMOVE_TEXTS.cancel}</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={removing}
            onClick={() => {
              if (member) onConfirm(member);
            }}
          >
            {removing ? <BusyIcon /> : null}
            {REMOVE_TEXTS.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
