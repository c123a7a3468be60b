import { useState } from 'react';
import { Ban } from 'lucide-react';
import { displayName } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Label } from '../../ui/Label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { useAuth } from '../auth/useAuth';
import { useUsers } from '../channels/useUsers';
import { UserAvatar } from '../members/UserAvatar';
import { useBlockedUsers } from './useBlockedUsers';
import { useBlockUser } from './useBlockUser';

/** Spec §2: who you blocked, with Unblock, and a selector to block someone else. */
export function BlockedUsersCard() {
  const { user: me } = useAuth();
  const blocked = useBlockedUsers();
  const users = useUsers();
  const block = useBlockUser();
  const [choice, setChoice] = useState('');
  const [unblocking, setUnblocking] = useState<string | null>(null);

  const blockedIds = new Set((blocked.data ?? []).map((user) => user.id));
  const candidates = (users.data ?? []).filter(
    (user) => user.id !== me?.id && !blockedIds.has(user.id),
  );

  const blockChosen = () => {
    const chosen = candidates.find((user) => user.id === choice);
    if (!chosen) return;
    block.mutate(
      { userId: chosen.id, blocked: true, name: displayName(chosen) },
      { onSuccess: () => setChoice('') },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Blocked Users</CardTitle>
        <CardDescription>
          Blocked people cannot call you or add you to channels, and you will not hear them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {blocked.isLoading ? (
          <Spinner label="Loading blocked users" />
        ) : (blocked.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">You have not blocked anyone.</p>
        ) : (
          <ul className="grid divide-y">
            {(blocked.data ?? []).map((user) => {
              const name = displayName(user);
              const busy = block.isPending && unblocking === user.id;
              return (
                <li key={user.id} className="flex items-center gap-3 py-2.5">
                  <UserAvatar name={name} imageUrl={user.profileImageUrl} />
                  <span className="min-w-0 flex-1 truncate text-sm font-medium">{name}</span>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Unblock ${name}`}
                    disabled={busy}
                    onClick={() => {
                      setUnblocking(user.id);
                      block.mutate(
                        { userId: user.id, blocked: false, name },
                        { onSettled: () => setUnblocking(null) },
                      );
                    }}
                  >
                    {busy ? <BusyIcon /> : null}
                    Unblock
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="block-user">Block a user</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Select value={choice} onValueChange={setChoice}>
              <SelectTrigger id="block-user" className="sm:min-w-0 sm:flex-1">
                <SelectValue placeholder="Choose someone to block" />
              </SelectTrigger>
              <SelectContent>
                {candidates.map((user) => (
                  <SelectItem key={user.id} value={user.id}>
                    {displayName(user)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Button
              variant="destructive"
              disabled={!choice || (block.isPending && unblocking === null)}
              onClick={blockChosen}
            >
              {block.isPending && unblocking === null ? <BusyIcon /> : <Ban aria-hidden="true" />}
              Block
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
