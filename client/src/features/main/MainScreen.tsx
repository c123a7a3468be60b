import { Suspense, lazy } from 'react';
import { useSearch } from 'wouter';
import { isAdminTier } from '../../../../protocol/user';
import { useAuth } from '../auth/useAuth';
import { ChannelBar } from './ChannelBar';
import { useCurrentChannel } from '../channels/current-channel';
import { useChannelEntry } from '../channels/useChannelEntry';
import { useConversation, useConversations } from '../channels/useConversations';
import { ShareButton } from '../invites/ShareButton';
import { Hash, Users } from 'lucide-react';
import { AppLayout } from '../shell/AppLayout';
import { DeferredTopBarMenu } from '../shell/DeferredTopBarMenu';
import { IdleNotice } from '../presence/IdleNotice';
import { UsageAlertBanner } from '../usage/UsageAlertBanner';
import { mayHoldTapTarget } from '../notifications/tap-query';
import { NoChannelPrompt } from './NoChannelPrompt';
import { TopBarStatusSlot } from './TopBarStatusSlot';
import { VoiceControlsSlot } from './VoiceControlsSlot';
import { SosButtonSlot } from '../sos/SosButtonSlot';

// The menus' code loads just after the screen first renders (a smaller first load).
const loadContactsMenu = () => import('../contacts/ContactsMenu').then((m) => m.ContactsMenu);
const loadChannelsMenu = () => import('../channels/ChannelsMenu').then((m) => m.ChannelsMenu);
// A direct conversation's bar loads when one is first opened.
const ConversationBar = lazy(() =>
  import('../conversations/ConversationBar').then((m) => ({ default: m.ConversationBar })),
);
// A tapped notification's target (a call, a channel, a transmission): its code loads when there is one.
const PushTapHandler = lazy(() =>
  import('../notifications/PushTapHandler').then((m) => ({ default: m.PushTapHandler })),
);

/**
 * The signed-in main screen (spec §2): top bar menus, the voice area (owned by the presence and
 * voice features through the slot components) and the current channel's bar at the bottom. It only
 * renders: presence and voice run in the signed-in session, whichever screen is open.
 */
export function MainScreen() {
  const { user } = useAuth();
  const { channelId } = useCurrentChannel();
  useChannelEntry();
  const conversations = useConversations();
  const conversation = useConversation(channelId);
  const search = useSearch();
  const isAdmin = user !== null && isAdminTier(user.subscriptionTier);

  return (
    <AppLayout
      status={<TopBarStatusSlot />}
      contacts={<DeferredTopBarMenu icon={Users} label="Contacts" load={loadContactsMenu} />}
      channels={<DeferredTopBarMenu icon={Hash} label="Channels" load={loadChannelsMenu} />}
      share={<ShareButton />}
    >
      <UsageAlertBanner />
      {mayHoldTapTarget(search) ? (
        <Suspense fallback={null}>
          <PushTapHandler />
        </Suspense>
      ) : null}
      {channelId === null ? (
        <>
          <NoChannelPrompt isAdmin={isAdmin} />
          <SosButtonSlot />
        </>
      ) : (
        <div className="flex flex-1 flex-col gap-6">
          <h1 className="sr-only">{conversation ? 'Conversation' : 'Channel'}</h1>
          <section
            aria-label="Voice"
            className="flex flex-1 flex-col items-center justify-center gap-6 py-4"
          >
            <VoiceControlsSlot />
            <SosButtonSlot />
          </section>
          {conversation ? (
            <Suspense fallback={null}>
              <ConversationBar conversation={conversation} />
            </Suspense>
          ) : conversations.isPending ? null : (
            <ChannelBar channelId={channelId} />
          )}
        </div>
      )}
      <IdleNotice />
    </AppLayout>
  );
}
