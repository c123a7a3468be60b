import type { ChannelMember } from '../../../../protocol/channels';
import { toast } from '../../ui/toast-store';
import { ToastAction } from '../../ui/Toast';
import { removeWithUndo, UNDO_TEXTS, UNDO_WINDOW_MS } from './remove-with-undo';
import { RemoveMemberDialog } from './RemoveMemberDialog';
import { useAddMember } from './useAddMember';
import { useMuteMember } from './useMuteMember';
import { useRemoveMember } from './useRemoveMember';

export type MemberRemovalProps = {
  channelId: number;
  channelName: string;
  /** Who the admin chose to remove; null: nothing asked. */
  member: ChannelMember | null;
  onClose: () => void;
  /** The removal happened: the list keeps the card's place while the undo is offered. */
  onRemoved: (member: ChannelMember) => void;
};

/**
 * Removing a member from the card menu: the confirmation, the removal, then "Removed <name>" with
 * Undo for the toast's time (loaded with the first removal, not with the main screen).
 */
export function MemberRemoval({
  channelId,
  channelName,
  member,
  onClose,
  onRemoved,
}: MemberRemovalProps) {
  const remove = useRemoveMember(channelId);
  const add = useAddMember(channelId);
  const mute = useMuteMember(channelId);
  const confirm = (target: ChannelMember) =>
    void removeWithUndo(target, {
      remove: (id) => remove.mutateAsync(id),
      add: (id) => add.mutateAsync(id),
      mute: (id) => mute.mutateAsync({ memberId: id, muted: true }),
      announce: (removed, undo) => {
        onClose();
        onRemoved(removed);
        toast({
          title: UNDO_TEXTS.removed(removed.name),
          duration: UNDO_WINDOW_MS,
          action: (
            <ToastAction
              altText={UNDO_TEXTS.undoLabel(removed.name)}
              aria-label={UNDO_TEXTS.undoLabel(removed.name)}
              onClick={undo}
            >
              {UNDO_TEXTS.undo}
            </ToastAction>
          ),
        });
      },
      restored: (restored) => toast({ title: UNDO_TEXTS.restored(restored.name) }),
    });
  return (
    <RemoveMemberDialog
      member={member}
      channelName={channelName}
      removing={remove.isPending}
      onConfirm={confirm}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    />
  );
}
