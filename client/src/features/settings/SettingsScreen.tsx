import { useState } from 'react';
import { useAuth } from '../auth/useAuth';
import { useCurrentChannel } from '../channels/current-channel';
import { IdleNotice } from '../presence/IdleNotice';
import { TalkModeCard } from '../presence/TalkModeCard';
import { PayAsYouGoCard } from '../usage/PayAsYouGoCard';
import { PageLayout } from '../shell/PageLayout';
import { AccountInfoCard } from './AccountInfoCard';
import { BlockedUsersCard } from './BlockedUsersCard';
import { ChangePasswordCard } from './ChangePasswordCard';
import { ClaimServerCard } from './ClaimServerCard';
import { ChannelManagementCard } from './ChannelManagementCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { MemberManagementCard } from './MemberManagementCard';
import { NotificationsCard } from './NotificationsCard';
import { TierCard } from './TierCard';
import { useAccount } from './useAccount';
import { UserManagementCard } from './UserManagementCard';

/** Spec §2 "Settings screen". */
export function SettingsScreen() {
  const { user } = useAuth();
  const { channelId: currentChannelId } = useCurrentChannel();
  // Member Management starts on the channel open on the main screen; "Members" buttons switch it.
  const [managedChannelId, setManagedChannelId] = useState<number | null>(currentChannelId);
  const { data: account } = useAccount();

  const manageMembers = (channelId: number) => {
    setManagedChannelId(channelId);
    document
      .getElementById('member-management')
      ?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <PageLayout title="Settings">
      <ClaimServerCard isSuperadmin={user?.subscriptionTier === 'superadmin'} />
      <TierCard tier={user?.subscriptionTier ?? 'free'} />
      {user?.subscriptionTier === 'superadmin' ? <UserManagementCard /> : null}
      <TalkModeCard />
      <NotificationsCard />
      <PayAsYouGoCard />
      <BlockedUsersCard />
      <ChannelManagementCard onManageMembers={manageMembers} />
      <MemberManagementCard channelId={managedChannelId} onChannelChange={setManagedChannelId} />
      <AccountInfoCard user={user} />
      {account?.passwordSignIn ? <ChangePasswordCard /> : null}
      {account ? <DeleteAccountCard account={account} /> : null}
      <IdleNotice />
    </PageLayout>
  );
}
