import type { Channel } from '../../../../protocol/channels';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { CreateChannelForm } from './CreateChannelForm';

export type CreateChannelDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (channel: Channel) => void;
};

/** Spec §2 "Create New Channel dialog". */
export function CreateChannelDialog({ open, onOpenChange, onCreated }: CreateChannelDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New Channel</DialogTitle>
          <DialogDescription>You will be its admin and can add members next.</DialogDescription>
        </DialogHeader>
        <CreateChannelForm
          onCreated={(channel) => {
            onOpenChange(false);
            onCreated(channel);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
