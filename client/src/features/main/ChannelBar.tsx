import { Suspense, lazy, useState } from 'react';
import { Hash, RadioTower, UserPlus } from 'lucide-react';
import { Button } from '../../ui/Button';
import { TruncatedText } from '../../ui/TruncatedText';
import { useAuth } from '../auth/useAuth';
import { InviteButton } from '../invites/InviteButton';
import { MemberList } from '../members/MemberList';
import { memberCountText } from '../channels/member-count';
import { canManageChannel } from '../channels/channel-permissions';
import { useChannel } from '../channels/useChannel';
import { useChannelMembers } from '../channels/useChannelMembers';

// The admin dialogs' code loads when an admin first opens one.
const AddMembersDialog = lazy(() =>
  import('./channel-admin-dialogs').then((m) => ({ default: m.AddMembersDialog })),
);
// Only walkie-talkie channels keep transmissions: their button's code loads with the first one.
const TransmissionsButton = lazy(() =>
  import('../transmissions/TransmissionsButton').then((m) => ({ default: m.TransmissionsButton })),
);
// Notify me reaches the member's devices when Chirp is closed: its code loads after the bar.
const ChannelNotifyToggle = lazy(() =>
  import('../notifications/ChannelNotifyToggle').then((m) => ({ default: m.ChannelNotifyToggle })),
);
const TalkModeDialog = lazy(() =>
  import('./channel-admin-dialogs').then((m) => ({ default: m.TalkModeDialog })),
);

/** Spec §2 bottom bar: channel name, member count, Invite, Add Members (admins) and member cards. */
export function ChannelBar({ channelId }: { channelId: number }) {
  const { user } = useAuth();
  const channel = useChannel(channelId);
  const members = useChannelMembers(channelId);
  const [adding, setAdding] = useState(false);
  const [addingUsed, setAddingUsed] = useState(false);
  const [talkMode, setTalkMode] = useState(false);
  const [talkModeUsed, setTalkModeUsed] = useState(false);
  const canManage = canManageChannel(channel, user);
  const count = members.data?.length ?? channel?.memberCount ?? 0;
  const name = channel?.name ?? 'Channel';
  const isMember = members.data?.some((member) => member.id === user?.id) ?? false;

  return (
    <section
      aria-labelledby="channel-bar-title"
      className="grid gap-4 rounded-2xl border bg-card p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="flex min-w-[12rem] flex-1 items-center gap-2">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground">
            <Hash aria-hidden="true" className="size-5" />
          </span>
          <div className="grid min-w-0">
            <h2 id="channel-bar-title" className="min-w-0 text-base font-semibold">
              <TruncatedText text={name} />
            </h2>
            <p className="text-xs text-muted-foreground">{memberCountText(count)}</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canManage ? (
            <Button
              size="sm"
              variant="outline"
              aria-haspopup="dialog"
              onClick={() => {
                setAddingUsed(true);
                setAdding(true);
              }}
            >
              <UserPlus aria-hidden="true" />
              Add Members
            </Button>
          ) : null}
          {canManage && channel ? (
            <Button
              size="sm"
              variant="outline"
              aria-haspopup="dialog"
              onClick={() => {
                setTalkModeUsed(true);
                setTalkMode(true);
              }}
            >
              <RadioTower aria-hidden="true" />
              Talk mode
            </Button>
          ) : null}
          {channel?.talkMode === 'walkie' && isMember ? (
            <Suspense fallback={null}>
              <TransmissionsButton channel={channel} />
            </Suspense>
          ) : null}
          {isMember ? (
            <Suspense fallback={null}>
              <ChannelNotifyToggle channelId={channelId} />
            </Suspense>
          ) : null}
          <InviteButton channelId={channelId} />
        </div>
      </div>
      <MemberList
        channelId={channelId}
        channelName={name}
        selfId={user?.id ?? ''}
        canManage={canManage}
        offerTalk
      />
      {canManage && addingUsed ? (
        <Suspense fallback={null}>
          <AddMembersDialog
            channelId={channelId}
            channelName={name}
            open={adding}
            onOpenChange={setAdding}
          />
        </Suspense>
      ) : null}
      {canManage && channel && talkModeUsed ? (
        <Suspense fallback={null}>
          <TalkModeDialog channel={channel} open={talkMode} onOpenChange={setTalkMode} />
        </Suspense>
      ) : null}
    </section>
  );
}
