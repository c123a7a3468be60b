import type { ComponentProps } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

export type TopBarButtonProps = Omit<ComponentProps<'button'>, 'children'> & {
  icon: LucideIcon;
  /** Visible text; the button's accessible name. */
  label: string;
};

/**
 * A top-bar action: icon over label on phones, icon beside label from `sm`. Spreads every prop
 * and ref onto the `<button>`, so it works as a Radix trigger:
 * `<DropdownMenuTrigger asChild><TopBarButton icon={Users} label="Contacts" /></DropdownMenuTrigger>`.
 */
export function TopBarButton({
  icon: Icon,
  label,
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
      {...props}
    >
      <Icon aria-hidden="true" className="size-5 shrink-0 sm:size-4" />
      <span className="truncate">{label}</span>
    </button>
  );
}
