import type { ComponentProps } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Hint } from '../../ui/Hint';
import { TOP_BAR_HINTS } from './top-bar-hints';

export type TopBarButtonProps = Omit<ComponentProps<'button'>, 'children'> & {
  icon: LucideIcon;
  /** Visible text; the button's accessible name. */
  label: string;
  /** The tooltip on hover and keyboard focus; the label's entry in `TOP_BAR_HINTS` by default. */
  hint?: string;
  /**
   * Something waiting behind the button (missed calls): a count on the icon, so the label keeps
   * its room, and `countLabel` ("2 missed calls") added to the accessible name. Hidden at 0.
   */
  count?: number;
  countLabel?: string;
};

/**
 * A top-bar action: icon over label on phones, icon beside label from `sm`. Spreads every prop
 * and ref onto the `<button>`, so it works as a Radix trigger:
 * `<DropdownMenuTrigger asChild><TopBarButton icon={Users} label="Contacts" /></DropdownMenuTrigger>`.
 * `aria-disabled` keeps it focusable (so its tooltip can say why) and only dims it; the caller
 * ignores presses meanwhile.
 */
export function TopBarButton({
  icon: Icon,
  label,
  hint = TOP_BAR_HINTS[label],
  count = 0,
  countLabel,
  className,
  type = 'button',
  ...props
}: TopBarButtonProps) {
  const button = (
    <button
      type={type}
      className={cn(
        'inline-flex min-h-11 min-w-0 cursor-pointer flex-col items-center justify-center gap-0.5 rounded-lg px-1.5 py-1',
        'text-[0.7rem] leading-tight font-medium text-muted-foreground transition-colors',
        'hover:bg-accent hover:text-accent-foreground data-[state=open]:bg-accent data-[state=open]:text-accent-foreground',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'disabled:pointer-events-none disabled:opacity-50',
        'aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-transparent aria-disabled:hover:text-muted-foreground sm:aria-disabled:hover:text-foreground',
        'sm:h-9 sm:min-h-0 sm:flex-row sm:gap-2 sm:px-3 sm:text-sm sm:text-foreground',
        className,
      )}
      {...(count > 0 && countLabel ? { 'aria-label': `${label}, ${countLabel}` } : {})}
      {...props}
    >
      <span className="relative inline-flex shrink-0">
        <Icon aria-hidden="true" className="size-5 sm:size-4" />
        {count > 0 ? (
          <span
            aria-hidden="true"
            className="absolute -top-1.5 -right-2.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-bold text-destructive-foreground ring-2 ring-background sm:right-auto sm:-left-2.5"
          >
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </span>
      <span className="truncate">{label}</span>
    </button>
  );
  return hint ? (
    <Hint content={hint} side="bottom">
      {button}
    </Hint>
  ) : (
    button
  );
}
