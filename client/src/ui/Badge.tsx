import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export type BadgeVariant =
  'default' | 'secondary' | 'outline' | 'success' | 'warning' | 'destructive';

const variantClasses: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'border-border text-foreground',
  success: 'border-success/40 bg-success/10 text-success-text',
  warning: 'border-warning/40 bg-warning/10 text-warning-text',
  destructive: 'border-transparent bg-destructive text-destructive-foreground',
};

export type BadgeProps = ComponentProps<'span'> & { variant?: BadgeVariant };

export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap [&_svg]:size-3',
        variantClasses[variant],
        className,
      )}
      {...props}
    />
  );
}
