import type { ComponentProps } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

export type TopBarButtonProps = Omit<ComponentProps<'button'>, 'children'> & {
  icon: LucideIcon;
  /** Visible text; the button's accessible name. */
  label: string;
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
 */
export function TopBarButton({
  icon: Icon,
  label,
  count = 0,
  countLabel,
  className,
  type = 'button',
  ...props
}: TopBarButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex min-h-11 min-w-0 cursor-pointer flex-col items-center justify-center gap-0.5 rounded-lg px-1.5 py-1',
        'text-[0.7rem] leading-tight font-medium text-muted-foreground transition-colors',
        'hover:bg-accent hover:text-accent-foreground data-[state=open]:bg-accent data-[state=open]:text-accent-foreground',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'disabled:pointer-events-none disabled:opacity-50',
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
}
