import { useState } from 'react';
import { UserPlus } from 'lucide-react';
import { displayName } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { Spinner } from '../../ui/Spinner';
import { useChannelMembers } from '../channels/useChannelMembers';
import { useUsers } from '../channels/useUsers';
import { useAddMember } from './useAddMember';
import { UserAvatar } from './UserAvatar';

export type AddMembersDialogProps = {
  channelId: number;
  channelName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** Spec §2 "Add Members to Channel dialog": users not yet members, each with Add. */
export function AddMembersDialog({
  channelId,
  channelName,
  open,
  onOpenChange,
}: AddMembersDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Members to Channel</DialogTitle>
          <DialogDescription>Add people to {channelName}.</DialogDescription>
        </DialogHeader>
        {open ? <CandidateList channelId={channelId} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CandidateList({ channelId }: { channelId: number }) {
  const users = useUsers();
  const members = useChannelMembers(channelId);
  const addMember = useAddMember(channelId);
  // Which row is being added, so only that one spins while others stay usable.
  const [adding, setAdding] = useState<string | null>(null);

  if (users.isLoading || members.isLoading) return <Spinner label="Loading" className="py-4" />;
  if (members.isError)
    return (
      <p role="alert" className="text-sm text-destructive-text">
        {members.error.message}
      </p>
    );
  if (users.isError)
    return (
      <p role="alert" className="text-sm text-destructive-text">
        Could not load users.
      </p>
    );

  const memberIds = new Set((members.data ?? []).map((member) => member.userId));
  const candidates = (users.data ?? []).filter((user) => !memberIds.has(user.id));
  if (candidates.length === 0)
    return (
      <p className="rounded-xl bg-muted px-4 py-6 text-center text-sm text-muted-foreground">
        All users are already members of this channel
      </p>
    );

  return (
    <ul className="grid max-h-[60dvh] gap-1 overflow-y-auto">
      {candidates.map((user) => {
        const name = displayName(user);
        const busy = addMember.isPending && adding === user.id;
        return (
          <li key={user.id} className="flex items-center gap-3 rounded-lg px-1 py-1.5">
            <UserAvatar name={name} imageUrl={user.profileImageUrl} />
            <div className="grid min-w-0 flex-1">
              <span className="truncate text-sm font-medium">{name}</span>
              {user.email && user.email !== name ? (
                <span className="truncate text-xs text-muted-foreground">{user.email}</span>
              ) : null}
            </div>
            <Button
              size="sm"
              aria-label={`Add ${name}`}
              disabled={busy}
              onClick={() => {
                setAdding(user.id);
                addMember.mutate(user.id, { onSettled: () => setAdding(null) });
              }}
            >
              {busy ? <BusyIcon /> : <UserPlus aria-hidden="true" />}
              Add
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
