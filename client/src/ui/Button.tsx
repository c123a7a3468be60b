import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '../lib/cn';

export type ButtonVariant = 'default' | 'secondary' | 'outline' | 'ghost' | 'destructive';
export type ButtonSize = 'sm' | 'default' | 'lg' | 'icon';

const variantClasses: Record<ButtonVariant, string> = {
  default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
  secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
  outline:
    'border border-input bg-card text-card-foreground hover:bg-accent hover:text-accent-foreground',
  ghost: 'text-foreground hover:bg-accent hover:text-accent-foreground',
  destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 rounded-md px-3 text-xs [&_svg]:size-3.5',
  default: 'h-10 gap-2 rounded-lg px-4 text-sm [&_svg]:size-4',
  lg: 'h-12 gap-2 rounded-xl px-6 text-base [&_svg]:size-5',
  icon: 'size-10 rounded-lg [&_svg]:size-5',
};

/** The classes of a button, for elements that must look like one without being a `<Button>`. */
export function buttonClasses(
  variant: ButtonVariant = 'default',
  size: ButtonSize = 'default',
): string {
  return cn(
    'inline-flex shrink-0 cursor-pointer items-center justify-center font-medium whitespace-nowrap select-none',
    'transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
    'disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50',
    '[&_svg]:pointer-events-none [&_svg]:shrink-0',
    variantClasses[variant],
    sizeClasses[size],
  );
}

type BaseButtonProps = ComponentProps<'button'> & {
  variant?: ButtonVariant;
  /** Render the child element (a link, a Radix trigger's child) with the button's look. */
  asChild?: boolean;
};

/** An icon-only button has no visible text, so it must name itself for screen readers. */
export type ButtonProps =
  | (BaseButtonProps & { size?: Exclude<ButtonSize, 'icon'> })
  | (BaseButtonProps & { size: 'icon'; 'aria-label': string });

export function Button({ variant, size, asChild = false, className, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : 'button';
  return (
    <Component
      type={asChild ? type : (type ?? 'button')}
      className={cn(buttonClasses(variant, size), className)}
      {...props}
    />
  );
}
