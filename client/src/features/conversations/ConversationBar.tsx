import { Suspense, lazy } from 'react';
import { ArrowLeft } from 'lucide-react';
import type { Conversation } from '../../../../protocol/conversations';
import { displayName } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { Hint } from '../../ui/Hint';
import { TruncatedText } from '../../ui/TruncatedText';
import { useAuth } from '../auth/useAuth';
import { setCurrentChannelId } from '../channels/current-channel';
import { MemberList } from '../members/MemberList';
import { UserAvatar } from '../members/UserAvatar';
import { CONVERSATION_TEXTS, conversationReturn } from '../channels/open-conversation';

// Notify me: whether this person's walkie-talkie messages reach my devices while Chirp is closed.
const ChannelNotifyToggle = lazy(() =>
  import('../notifications/ChannelNotifyToggle').then((m) => ({ default: m.ChannelNotifyToggle })),
);
const TransmissionsButton = lazy(() =>
  import('../transmissions/TransmissionsButton').then((m) => ({ default: m.TransmissionsButton })),
);

/**
 * The bottom bar of a one-to-one conversation: a walkie-talkie channel of two, so the voice area
 * above (ONLINE, hold to talk, the floor) works as in any channel. Here: the way back, the other
 * person's name as the title, what was kept ("N missed" and the player) and both people's cards.
 */
export function ConversationBar({ conversation }: { conversation: Conversation }) {
  const { user } = useAuth();
  const name = displayName(conversation.user);
  // The player names the conversation by the person, not the stored channel name.
  const channel = { ...conversation.channel, name };
  return (
    <section
      aria-labelledby="channel-bar-title"
      data-testid="conversation-bar"
      className="grid gap-4 rounded-2xl border bg-card p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="flex min-w-[12rem] flex-1 items-center gap-2">
          <Hint content={CONVERSATION_TEXTS.backLabel}>
            <Button
              size="icon"
              variant="ghost"
              aria-label={CONVERSATION_TEXTS.backLabel}
              onClick={() => setCurrentChannelId(conversationReturn())}
            >
              <ArrowLeft aria-hidden="true" />
            </Button>
          </Hint>
          <UserAvatar name={name} imageUrl={conversation.user.profileImageUrl} />
          <div className="grid min-w-0">
            <h2 id="channel-bar-title" className="min-w-0 text-base font-semibold">
              <TruncatedText text={name} />
            </h2>
            <p className="text-xs text-muted-foreground">{CONVERSATION_TEXTS.subtitle}</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Suspense fallback={null}>
            <TransmissionsButton channel={channel} />
            <ChannelNotifyToggle channelId={channel.id} />
          </Suspense>
        </div>
      </div>
      <MemberList
        channelId={channel.id}
        channelName={name}
        selfId={user?.id ?? ''}
        canManage={false}
      />
    </section>
  );
}
