import type { ComponentProps } from 'react';
import { EllipsisVertical } from 'lucide-react';
import { Button } from '../../ui/Button';
import { MEMBER_ACTION_TEXTS } from './member-actions';

/** The card's "⋮" button: the menu's trigger, or the stand-in while the menu's code loads. */
export function MemberMenuTrigger({
  name,
  ...props
}: { name: string } & Omit<ComponentProps<'button'>, 'children'>) {
  return (
    <Button
      size="icon"
      variant="ghost"
      aria-label={MEMBER_ACTION_TEXTS.menu(name)}
      aria-haspopup="menu"
      className="-my-1 -mr-1 text-muted-foreground hover:text-foreground"
      {...props}
    >
      <EllipsisVertical aria-hidden="true" />
    </Button>
  );
}
