import { useState } from 'react';
import { UserPlus } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { displayName } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Label } from '../../ui/Label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { useAuth } from '../auth/useAuth';
import { canManageChannel } from '../channels/channel-permissions';
import { useChannelMembers } from '../channels/useChannelMembers';
import { useContacts } from '../contacts/useContacts';
import { useAddMember } from '../members/useAddMember';
import { useMuteMember } from '../members/useMuteMember';
import { usePokeMember } from '../members/usePokeMember';
import { MemberRemoval } from '../members/MemberRemoval';
import { useSpeakingUserIds } from '../voice/useSpeakingUserIds';
import { ManagedMemberRow } from './ManagedMemberRow';
import { useManagedChannels } from './useManagedChannels';

export type MemberManagementCardProps = {
  channelId: number | null;
  onChannelChange: (channelId: number) => void;
};

/** Spec §2: pick a channel, add one of your contacts to it, and poke, mute or remove its members. */
export function MemberManagementCard({ channelId, onChannelChange }: MemberManagementCardProps) {
  const { channels } = useManagedChannels();
  return (
    <Card id="member-management">
      <CardHeader>
        <CardTitle>Member Management</CardTitle>
        <CardDescription>
          Poke members; channel admins also add, mute and remove them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="manage-channel">Channel</Label>
          <Select
            value={channelId === null ? '' : String(channelId)}
            onValueChange={(value) => onChannelChange(Number(value))}
          >
            <SelectTrigger id="manage-channel">
              <SelectValue placeholder="Select a channel" />
            </SelectTrigger>
            <SelectContent>
              {channels.map((channel) => (
                <SelectItem key={channel.id} value={String(channel.id)}>
                  {channel.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {channelId === null ? (
          <p className="text-sm text-muted-foreground">Select a channel to see its members.</p>
        ) : (
          <ChannelMembersManager key={channelId} channelId={channelId} />
        )}
      </CardContent>
    </Card>
  );
}

type Busy = { memberId: string; action: 'poke' | 'mute' } | null;

function ChannelMembersManager({ channelId }: { channelId: number }) {
  const { user: me } = useAuth();
  const { channels } = useManagedChannels();
  const channel = channels.find((candidate) => candidate.id === channelId);
  const canManage = canManageChannel(channel, me);
  const members = useChannelMembers(channelId);
  const contacts = useContacts();
  const addMember = useAddMember(channelId);
  const poke = usePokeMember(channelId);
  const mute = useMuteMember(channelId);
  const [removing, setRemoving] = useState<ChannelMember | null>(null);
  const audible = useSpeakingUserIds();
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState<Busy>(null);
  const done = { onSettled: () => setBusy(null) };

  const memberIds = new Set((members.data ?? []).map((member) => member.userId));
  // Spec §2 "select contact to add": the people you added as contacts who are not members yet.
  const candidates = (contacts.data ?? []).filter((contact) => !memberIds.has(contact.id));

  return (
    <div className="grid min-w-0 gap-4">
      {canManage ? (
        <div className="grid min-w-0 gap-2">
          <Label htmlFor="add-member">Add a contact</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Select value={choice} onValueChange={setChoice}>
              <SelectTrigger id="add-member" className="sm:min-w-0 sm:flex-1">
                <SelectValue
                  placeholder={
                    contacts.isLoading
                      ? 'Loading contacts'
                      : candidates.length === 0
                        ? 'No contacts to add'
                        : 'Choose a contact'
                  }
                />
              </SelectTrigger>
              <SelectContent>
                {candidates.map((contact) => (
                  <SelectItem key={contact.id} value={contact.id}>
                    {displayName(contact)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Button
              disabled={!choice || addMember.isPending}
              onClick={() => addMember.mutate(choice, { onSuccess: () => setChoice('') })}
            >
              {addMember.isPending ? <BusyIcon /> : <UserPlus aria-hidden="true" />}
              Add
            </Button>
          </div>
        </div>
      ) : null}
      {members.isLoading ? (
        <Spinner label="Loading members" />
      ) : members.isError ? (
        <p role="alert" className="text-sm text-destructive-text">
          {members.error.message}
        </p>
      ) : (
        <ul aria-label="Channel members" className="grid divide-y">
          {(members.data ?? []).map((member) => (
            <ManagedMemberRow
              key={member.id}
              member={member}
              isSelf={member.id === me?.id}
              canManage={canManage}
              busy={busy?.memberId === member.id ? busy.action : null}
              audible={audible}
              onPoke={() => {
                setBusy({ memberId: member.id, action: 'poke' });
                poke.mutate(member.id, done);
              }}
              onToggleMute={() => {
                setBusy({ memberId: member.id, action: 'mute' });
                mute.mutate({ memberId: member.id, muted: !member.isMutedInChannel }, done);
              }}
              onRemove={() => setRemoving(member)}
            />
          ))}
        </ul>
      )}
      {/* As on the member card: confirmed first, then "Removed <name>" with Undo. */}
      <MemberRemoval
        channelId={channelId}
        channelName={channel?.name ?? ''}
        member={removing}
        onClose={() => setRemoving(null)}
        onRemoved={() => setRemoving(null)}
      />
    </div>
  );
}
