import { useRef, type ComponentProps, type FocusEvent } from 'react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '../lib/cn';
import type { ToastVariant } from './toast-store';

export const ToastProvider = ToastPrimitive.Provider;

/**
 * Where toasts show. On phones, just under the top bar (its height is the `--top-bar-height`
 * variable the top bar keeps up to date; 0 on screens without one): at the bottom they covered the
 * member list, and at the very top the top bar (Settings, Logout). From `sm`, bottom right, clear
 * of the home indicator; at most 420 px wide from `md` (spec §2). The empty viewport lets taps
 * through to what lies under it.
 */
export function ToastViewport({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      className={cn(
        'pointer-events-none fixed top-[var(--top-bar-height,0px)] right-0 z-[100] flex max-h-dvh w-full flex-col gap-2 px-3 pt-2 outline-none',
        'sm:top-auto sm:bottom-0 sm:p-4 sm:pb-[max(1rem,env(safe-area-inset-bottom))] md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  );
}

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-border bg-popover text-popover-foreground',
  destructive: 'border-destructive bg-destructive text-destructive-foreground',
};

/**
 * A tap or click leaves no focus behind on the toast itself: Radix pauses the close timer while
 * focus is inside, and on phones the focus of a tap arrives after the finger lifts, so a tapped
 * toast never went away (and covered the top bar). Focus that follows a pointer press is let go at
 * once; keyboard focus (F8) still pauses the toast, as it should, until it moves on or Escape.
 */
export function Toast({
  className,
  variant = 'default',
  onPointerDown,
  onFocus,
  ...props
}: ComponentProps<typeof ToastPrimitive.Root> & { variant?: ToastVariant }) {
  const pressed = useRef(false);
  return (
    <ToastPrimitive.Root
      data-variant={variant}
      onPointerDown={(event) => {
        onPointerDown?.(event);
        pressed.current = true;
      }}
      onFocus={(event: FocusEvent<HTMLLIElement>) => {
        onFocus?.(event);
        if (!pressed.current || event.target !== event.currentTarget) return;
        pressed.current = false;
        // After this focus event has reached Radix's pause listener, or its resume would come first.
        const toast = event.currentTarget;
        setTimeout(() => {
          if (document.activeElement === toast) toast.blur();
        }, 0);
      }}
      className={cn(
        'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-11 shadow-lg',
        'transition-transform data-[state=closed]:animate-toast-out data-[state=open]:animate-toast-in',
        'data-[swipe=cancel]:translate-x-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none',
        'data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=end]:animate-swipe-out',
        variantClasses[variant],
        className,
      )}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />;
}

export function ToastAction({ className, ...props }: ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-8 shrink-0 cursor-pointer items-center rounded-md border border-current/30 px-3 text-xs font-medium',
        'hover:bg-current/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label="Dismiss notification"
      className={cn(
        'absolute top-3 right-3 inline-flex size-7 cursor-pointer items-center justify-center rounded-md opacity-70',
        'hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-current',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </ToastPrimitive.Close>
  );
}
