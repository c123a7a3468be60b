import { useState, type ReactNode } from 'react';
import { Bell, Hash, Mic, Server, UserRound, type LucideIcon } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/Tabs';
import { useAuth } from '../auth/useAuth';
import { useCurrentChannel } from '../channels/current-channel';
import { IdleNotice } from '../presence/IdleNotice';
import { TalkModeCard } from '../presence/TalkModeCard';
import { PayAsYouGoCard } from '../usage/PayAsYouGoCard';
import { AudioDevicesCard } from '../voice-preferences/AudioDevicesCard';
import { PageLayout } from '../shell/PageLayout';
import { AccountInfoCard } from './AccountInfoCard';
import { BlockedUsersCard } from './BlockedUsersCard';
import { ChangePasswordCard } from './ChangePasswordCard';
import { ClaimServerCard } from './ClaimServerCard';
import { ChannelManagementCard } from './ChannelManagementCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { MemberManagementCard } from './MemberManagementCard';
import { NameCard } from './NameCard';
import { NotificationsCard } from './NotificationsCard';
import {
  SECTION_DESCRIPTIONS,
  SECTION_TITLES,
  SETTINGS_SECTIONS,
  sectionFromSearch,
  type SettingsSection,
} from './settings-sections';
import { TierCard } from './TierCard';
import { useAccount } from './useAccount';
import { useSetupStatus } from './useOwnerSetup';
import { UserManagementCard } from './UserManagementCard';

const ICONS: Record<SettingsSection, LucideIcon> = {
  you: UserRound,
  voice: Mic,
  notifications: Bell,
  channels: Hash,
  server: Server,
};

/**
 * Spec §2 "Settings screen", in sections (issue 29): You · Voice and devices · Notifications ·
 * Channels · Server. Server shows only to whoever may see its cards: the Super Admin (User
 * Management), and anyone while the server has no owner yet (Claim this server).
 */
export function SettingsScreen() {
  const { user } = useAuth();
  const isSuperadmin = user?.subscriptionTier === 'superadmin';
  const setup = useSetupStatus(!isSuperadmin);
  const serverVisible = isSuperadmin || setup.data?.ownerClaimed === false;
  const sections = SETTINGS_SECTIONS.filter((section) => section !== 'server' || serverVisible);

  const search = useSearch();
  const [, navigate] = useLocation();
  const section = sectionFromSearch(search, sections);
  const choose = (next: string) => {
    // The spec's /settings stays the first section's address; others add ?section=.
    const query = next === 'you' ? '' : `?section=${next}`;
    navigate(`/settings${query}`, { replace: true });
  };

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

  const content: Record<SettingsSection, ReactNode> = {
    you: (
      <>
        <TierCard tier={user?.subscriptionTier ?? 'free'} />
        {user ? <NameCard key={`${user.firstName ?? ''}\n${user.lastName ?? ''}`} user={user} /> : null}
        <AccountInfoCard user={user} />
        {account?.passwordSignIn ? <ChangePasswordCard /> : null}
        <PayAsYouGoCard />
        <BlockedUsersCard />
        {account ? <DeleteAccountCard account={account} /> : null}
      </>
    ),
    voice: (
      <>
        <AudioDevicesCard />
        <TalkModeCard />
      </>
    ),
    notifications: <NotificationsCard />,
    channels: (
      <>
        <ChannelManagementCard onManageMembers={manageMembers} />
        <MemberManagementCard channelId={managedChannelId} onChannelChange={setManagedChannelId} />
      </>
    ),
    server: (
      <>
        <ClaimServerCard isSuperadmin={isSuperadmin} />
        {isSuperadmin ? <UserManagementCard /> : null}
      </>
    ),
  };

  return (
    <PageLayout title="Settings">
      <Tabs value={section} onValueChange={choose} className="flex flex-col gap-6">
        <TabsList aria-label="Settings sections">
          {sections.map((id) => {
            const Icon = ICONS[id];
            return (
              <TabsTrigger key={id} value={id}>
                <Icon aria-hidden="true" />
                {SECTION_TITLES[id]}
              </TabsTrigger>
            );
          })}
        </TabsList>
        {sections.map((id) => (
          <TabsContent key={id} value={id}>
            <div className="grid gap-1">
              <h2 className="sr-only">{SECTION_TITLES[id]}</h2>
              <p className="text-sm text-muted-foreground">{SECTION_DESCRIPTIONS[id]}</p>
            </div>
            {content[id]}
          </TabsContent>
        ))}
      </Tabs>
      <IdleNotice />
    </PageLayout>
  );
}
