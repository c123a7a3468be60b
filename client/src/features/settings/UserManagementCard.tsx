import { useState } from 'react';
import { displayName, type SubscriptionTier, type User } from '../../../../protocol/user';
import { assignableTierSchema } from '../../../../protocol/user';
import { Badge } from '../../ui/Badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { useUsers } from '../channels/useUsers';
import { UserAvatar } from '../members/UserAvatar';
import { TIER_NAMES } from './tier-title';
import { useChangeTier } from './useChangeTier';

const ASSIGNABLE = assignableTierSchema.options;

/**
 * Spec §2, superadmin only: every user with a tier badge and a tier selector (free/member/admin,
 * shown as Free, Member and Admin; decision 046), disabled for a Super Admin.
 */
export function UserManagementCard() {
  const users = useUsers();
  return (
    <Card>
      <CardHeader>
        <CardTitle>User Management</CardTitle>
        <CardDescription>
          Change what each person may do. A Super Admin cannot be changed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {users.isLoading ? (
          <Spinner label="Loading users" />
        ) : users.isError ? (
          <p className="text-sm text-destructive-text">Could not load users.</p>
        ) : (
          <ul className="grid divide-y">
            {(users.data ?? []).map((user) => (
              <UserTierRow key={user.id} user={user} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function UserTierRow({ user }: { user: User }) {
  const changeTier = useChangeTier();
  // The tier shown while the change is in flight, so the selector does not jump back meanwhile.
  const [pending, setPending] = useState<SubscriptionTier | null>(null);
  const name = displayName(user);
  const isSuperadmin = user.subscriptionTier === 'superadmin';

  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <UserAvatar name={name} imageUrl={user.profileImageUrl} />
      <div className="grid min-w-0 flex-1 basis-40">
        <span className="truncate text-sm font-medium">{name}</span>
        <span className="truncate text-xs text-muted-foreground">
          {user.email ?? 'Not provided'}
        </span>
      </div>
      <Badge variant={isSuperadmin ? 'default' : 'outline'}>
        {TIER_NAMES[pending ?? user.subscriptionTier]}
      </Badge>
      <div className="w-full sm:w-36">
        <Select
          value={pending ?? (isSuperadmin ? undefined : user.subscriptionTier)}
          disabled={isSuperadmin || changeTier.isPending}
          onValueChange={(value) => {
            const tier = assignableTierSchema.safeParse(value);
            if (!tier.success || tier.data === user.subscriptionTier) return;
            setPending(tier.data);
            changeTier.mutate(
              { userId: user.id, name, subscriptionTier: tier.data },
              { onSettled: () => setPending(null) },
            );
          }}
        >
          <SelectTrigger aria-label={`Tier for ${name}`}>
            {/* The badge beside it says the tier; the selector says what it does. */}
            <SelectValue placeholder={isSuperadmin ? 'Cannot be changed' : 'Change tier'}>Change tier</SelectValue>
          </SelectTrigger>
          <SelectContent>
            {ASSIGNABLE.map((tier) => (
              <SelectItem key={tier} value={tier}>
                {TIER_NAMES[tier]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </li>
  );
}
