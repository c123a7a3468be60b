import { isAdminTier } from '../../../../protocol/user';
import { useAuth } from '../auth/useAuth';
import { useCallActive } from '../calls/call-active';
import { ChannelBar } from '../channels/ChannelBar';
import { ChannelsMenu } from '../channels/ChannelsMenu';
import { useCurrentChannel } from '../channels/current-channel';
import { useChannelEntry } from '../channels/useChannelEntry';
import { ContactsMenu } from '../contacts/ContactsMenu';
import { ShareDialog } from '../invites/ShareDialog';
import { PresenceRuntime } from '../presence/PresenceRuntime';
import { AppLayout } from '../shell/AppLayout';
import { UsageAlertBanner } from '../usage/UsageAlertBanner';
import { NoChannelPrompt } from './NoChannelPrompt';
import { TopBarStatusSlot } from './TopBarStatusSlot';
import { VoiceControlsSlot } from './VoiceControlsSlot';

/**
 * The signed-in main screen (spec §2): top bar menus, the voice area (owned by the presence and
 * voice features through the slot components) and the current channel's bar at the bottom.
 */
export function MainScreen() {
  const { user } = useAuth();
  const { channelId } = useCurrentChannel();
  useChannelEntry();
  const isAdmin = user !== null && isAdminTier(user.subscriptionTier);
  const callActive = useCallActive();

  return (
    <AppLayout
      status={<TopBarStatusSlot />}
      contacts={<ContactsMenu />}
      channels={<ChannelsMenu />}
      share={<ShareDialog />}
    >
      {/* Presence runs on the whole main screen: pokes and pushes arrive with no channel open too. */}
      <PresenceRuntime channelId={channelId} callActive={callActive} />
      <UsageAlertBanner />
      {channelId === null ? (
        <NoChannelPrompt isAdmin={isAdmin} />
      ) : (
        <div className="flex flex-1 flex-col gap-6">
          <h1 className="sr-only">Channel</h1>
          <section
            aria-label="Voice"
            className="flex flex-1 flex-col items-center justify-center gap-6 py-4"
          >
            <VoiceControlsSlot />
          </section>
          <ChannelBar channelId={channelId} />
        </div>
      )}
    </AppLayout>
  );
}
