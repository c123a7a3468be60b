import { useEffect, useState, type ReactNode } from 'react';
import type { ChannelMember } from '../../../../protocol/channels';
import type { MemberActions } from './member-actions';
import type { MemberActionsMenuProps } from './MemberActionsMenu';
import { MemberMenuTrigger } from './MemberMenuTrigger';

type Menu = (props: MemberActionsMenuProps) => ReactNode;

let loading: Promise<Menu> | undefined;
/** One load for every card: the menu primitives are not part of the first screen's code. */
const loadMenu = (): Promise<Menu> =>
  (loading ??= import('./MemberActionsMenu').then((m) => m.MemberActionsMenu));

/**
 * The member card's actions menu, its code loaded just after the list first renders. Until then
 * the same button stands in; a press meanwhile opens the menu as soon as it is there.
 */
export function DeferredMemberMenu({
  member,
  actions,
}: {
  member: ChannelMember;
  actions: MemberActions;
}) {
  const [Menu, setMenu] = useState<Menu | null>(null);
  const [openWhenReady, setOpenWhenReady] = useState(false);
  useEffect(() => {
    let live = true;
    loadMenu().then(
      (component) => {
        if (live) setMenu(() => component);
      },
      (error: unknown) => console.error('The member menu did not load', error),
    );
    return () => {
      live = false;
    };
  }, []);
  if (Menu) return <Menu member={member} actions={actions} defaultOpen={openWhenReady} />;
  return (
    <MemberMenuTrigger
      name={member.name}
      aria-expanded={false}
      onClick={() => setOpenWhenReady(true)}
    />
  );
}
