import { Suspense, lazy, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { cn } from '../../lib/cn';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useChannelMembers } from '../channels/useChannelMembers';
import { openConversation } from '../channels/open-conversation';
import { useSpeakingUserIds } from '../voice/useSpeakingUserIds';
import { MemberVolumeSlider } from '../voice-preferences/MemberVolumeSlider';
import { DeferredMemberMenu } from './DeferredMemberMenu';
import { MemberCard } from './MemberCard';
import { calleeOf, type MemberActions } from './member-actions';
import { isHeard, orderMembers } from './member-status';
import { RemovedMemberCard } from './RemovedMemberCard';
import { UNDO_WINDOW_MS } from './remove-with-undo';
import { SPEAKING_HOLD_MS, useHeardRecently } from './useHeardRecently';
import { useMuteMember } from './useMuteMember';
import { usePokeMember } from './usePokeMember';

// The confirmation and the undo toast load with the first removal.
const MemberRemoval = lazy(() =>
  import('./MemberRemoval').then((m) => ({ default: m.MemberRemoval })),
);

export const MEMBER_LIST_TEXTS = {
  reconnecting: 'Reconnecting...',
  lastKnown: 'Showing the members as last seen.',
  retry: 'Retry',
} as const;

export type MemberListProps = {
  channelId: number;
  channelName: string;
  selfId: string;
  /** Whether Mute and Remove are offered on other members (channel admins), never on the creator. */
  canManage: boolean;
  /** Offers "Talk" (a direct conversation) on other members: in group channels. */
  offerTalk?: boolean;
};

type Busy = { memberId: string; action: 'poke' | 'mute' } | null;

/**
 * The current channel's member cards (spec §2), refetched every 5 s. The member heard now comes
 * first; a lost server keeps the last-known cards, marked as reconnecting, with a Retry.
 */
export function MemberList({
  channelId,
  channelName,
  selfId,
  canManage,
  offerTalk = false,
}: MemberListProps) {
  const queryClient = useQueryClient();
  const members = useChannelMembers(channelId);
  const poke = usePokeMember(channelId);
  const mute = useMuteMember(channelId);
  const audible = useSpeakingUserIds();
  // A card keeps "Speaking" through the short pauses of speech; the order through a talk spell.
  const heard = useHeardRecently(audible, SPEAKING_HOLD_MS);
  const heardRecently = useHeardRecently(audible);
  const [busy, setBusy] = useState<Busy>(null);
  const [removing, setRemoving] = useState<ChannelMember | null>(null);
  const [removalUsed, setRemovalUsed] = useState(false);
  /** Removed in the last few seconds: their card keeps its place while Undo is offered. */
  const [removed, setRemoved] = useState<ReadonlyMap<string, ChannelMember>>(new Map());

  if (members.isLoading) return <Spinner label="Loading members" className="py-3" />;
  if (members.isError && !members.data)
    return (
      <div className="flex flex-wrap items-center gap-3 py-3">
        <p role="alert" className="text-sm text-destructive-text">
          {members.error.message}
        </p>
        <RetryButton onRetry={() => void members.refetch()} busy={members.isFetching} />
      </div>
    );

  const current = members.data ?? [];
  const present = new Set(current.map((member) => member.id));
  const gone = [...removed.values()].filter((member) => !present.has(member.id));
  const sorted = orderMembers([...current, ...gone], heardRecently);
  const reconnecting = members.isError;

  const done = { onSettled: () => setBusy(null) };
  const actionsFor = (member: ChannelMember): MemberActions => {
    const manageable = canManage && member.role !== 'admin';
    return {
      onPoke: () => {
        setBusy({ memberId: member.id, action: 'poke' });
        poke.mutate(member.id, done);
      },
      // The call controller is running already (the signed-in session); only its import is deferred.
      onCall: () =>
        void import('../calls/call-runtime').then(({ callController }) =>
          callController.place(calleeOf(member)),
        ),
      onTalk: offerTalk ? () => void openConversation(queryClient, member.id) : undefined,
      // The channel's admin (its creator) cannot be muted or removed (DESIGN §3): no item that fails.
      onToggleMute: manageable
        ? () => {
            setBusy({ memberId: member.id, action: 'mute' });
            mute.mutate({ memberId: member.id, muted: !member.isMutedInChannel }, done);
          }
        : undefined,
      onRemove: manageable
        ? () => {
            setRemovalUsed(true);
            setRemoving(member);
          }
        : undefined,
      busy: busy?.memberId === member.id ? busy.action : null,
    };
  };
  const keepPlace = (member: ChannelMember) => {
    setRemoved((map) => new Map(map).set(member.id, member));
    setTimeout(
      () =>
        setRemoved((map) => {
          const next = new Map(map);
          next.delete(member.id);
          return next;
        }),
      UNDO_WINDOW_MS,
    );
  };

  return (
    <div className="grid gap-3">
      {reconnecting ? (
        <div className="flex items-center gap-3 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
          <div className="grid min-w-0 flex-1 gap-0.5">
            <Spinner size="sm" label={MEMBER_LIST_TEXTS.reconnecting} className="gap-2" />
            <span className="text-xs text-muted-foreground">{MEMBER_LIST_TEXTS.lastKnown}</span>
          </div>
          <RetryButton onRetry={() => void members.refetch()} busy={members.isFetching} />
        </div>
      ) : null}
      <ul
        aria-label="Members"
        aria-busy={reconnecting || undefined}
        className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3"
      >
        {sorted.map((member) =>
          present.has(member.id) ? (
            <MemberCard
              key={member.id}
              member={member}
              isSelf={member.id === selfId}
              isHeard={!reconnecting && isHeard(member, heard)}
              stale={reconnecting}
              menu={
                member.id === selfId ? undefined : (
                  <DeferredMemberMenu member={member} actions={actionsFor(member)} />
                )
              }
              // One's own voice is never played back (spec §6), so only others get a volume.
              volumeControl={
                member.id === selfId ? undefined : (
                  <MemberVolumeSlider memberId={member.id} name={member.name} />
                )
              }
            />
          ) : (
            <RemovedMemberCard key={member.id} member={member} />
          ),
        )}
      </ul>
      {canManage && removalUsed ? (
        <Suspense fallback={null}>
          <MemberRemoval
            channelId={channelId}
            channelName={channelName}
            member={removing}
            onClose={() => setRemoving(null)}
            onRemoved={keepPlace}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function RetryButton({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  return (
    <Button size="sm" variant="outline" disabled={busy} onClick={onRetry}>
      <RefreshCw aria-hidden="true" className={cn(busy && 'motion-safe:animate-spin')} />
      {MEMBER_LIST_TEXTS.retry}
    </Button>
  );
}
