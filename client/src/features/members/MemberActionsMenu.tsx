import { BellRing, Mic, MicOff, Phone, RadioTower, UserMinus } from 'lucide-react';
import type { ChannelMember } from '../../../../protocol/channels';
import { BusyIcon } from '../../ui/BusyIcon';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/DropdownMenu';
import { MEMBER_ACTION_TEXTS as TEXTS, type MemberActions } from './member-actions';
import { MemberMenuTrigger } from './MemberMenuTrigger';

export type MemberActionsMenuProps = {
  member: ChannelMember;
  actions: MemberActions;
  defaultOpen?: boolean;
};

/**
 * A member card's menu: Poke, Call, Talk for everyone; Mute/Unmute and Remove for channel admins.
 * Remove opens a confirmation (the caller's `onRemove`), never removes on the press itself.
 */
export function MemberActionsMenu({
  member,
  actions,
  defaultOpen = false,
}: MemberActionsMenuProps) {
  const admin = actions.onToggleMute !== undefined || actions.onRemove !== undefined;
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <MemberMenuTrigger name={member.name} />
      </DropdownMenuTrigger>
      <DropdownMenuContent aria-label={TEXTS.menu(member.name)}>
        <DropdownMenuLabel className="max-w-[16rem] truncate normal-case">
          {member.name}
        </DropdownMenuLabel>
        <DropdownMenuItem disabled={actions.busy === 'poke'} onSelect={actions.onPoke}>
          {actions.busy === 'poke' ? <BusyIcon /> : <BellRing aria-hidden="true" />}
          {TEXTS.poke}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={actions.onCall}>
          <Phone aria-hidden="true" />
          {TEXTS.call}
        </DropdownMenuItem>
        {actions.onTalk ? (
          <DropdownMenuItem onSelect={actions.onTalk}>
            <RadioTower aria-hidden="true" />
            {TEXTS.talk}
          </DropdownMenuItem>
        ) : null}
        {admin ? <DropdownMenuSeparator /> : null}
        {actions.onToggleMute ? (
          <DropdownMenuItem disabled={actions.busy === 'mute'} onSelect={actions.onToggleMute}>
            {actions.busy === 'mute' ? (
              <BusyIcon />
            ) : member.isMutedInChannel ? (
              <Mic aria-hidden="true" />
            ) : (
              <MicOff aria-hidden="true" />
            )}
            {member.isMutedInChannel ? TEXTS.unmute : TEXTS.mute}
          </DropdownMenuItem>
        ) : null}
        {actions.onRemove ? (
          <DropdownMenuItem variant="destructive" onSelect={actions.onRemove}>
            <UserMinus aria-hidden="true" />
            {TEXTS.remove}
          </DropdownMenuItem>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
