import type { ComponentProps } from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { cn } from '../lib/cn';

/**
 * Tabs (WAI-ARIA tabs pattern through Radix): arrow keys move between tabs and show their panel,
 * Home/End jump to the ends, Tab moves into the panel. The list wraps onto a second row on narrow
 * screens, so every tab stays visible and none is cut.
 */
export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn('flex flex-wrap gap-2 rounded-2xl border bg-card p-1.5 shadow-sm', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-xl px-3 text-sm font-medium text-muted-foreground',
        'hover:bg-muted hover:text-foreground',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
        'data-[state=active]:bg-primary data-[state=active]:text-primary-foreground',
        'transition-colors motion-reduce:transition-none [&_svg]:size-4 [&_svg]:shrink-0',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn('flex flex-col gap-6 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring', className)}
      {...props}
    />
  );
}
