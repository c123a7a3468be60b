import type { ReactNode, Ref } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';

export type CallScreenProps = {
  /** The other party's name: the dialog's accessible name. */
  title: string;
  description: string;
  children: ReactNode;
  onEscape?: () => void;
  /** The element focused when the screen opens (focus moves into the overlay). */
  initialFocus?: () => HTMLElement | null;
};

/**
 * A full-screen call overlay: modal (focus stays inside, the page behind is inert), mobile-first,
 * light and dark from the theme. Escape runs `onEscape` (the active call minimizes) instead of closing.
 */
export function CallScreen({
  title,
  description,
  children,
  onEscape,
  initialFocus,
}: CallScreenProps) {
  return (
    <DialogPrimitive.Root open modal>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-describedby="call-screen-description"
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            onEscape?.();
          }}
          onInteractOutside={(event) => event.preventDefault()}
          onOpenAutoFocus={(event) => {
            const target = initialFocus?.();
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className="fixed inset-0 z-[60] flex flex-col items-center justify-between bg-background px-6 pt-[max(env(safe-area-inset-top),1.5rem)] pb-[max(env(safe-area-inset-bottom),2rem)] text-foreground outline-none data-[state=open]:animate-fade-in"
        >
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Description id="call-screen-description" className="sr-only">
            {description}
          </DialogPrimitive.Description>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** A big round call button with a visible caption under it; the label names it for screen readers. */
export function RoundCallButton({
  label,
  caption,
  tone,
  pressed,
  onClick,
  icon,
  buttonRef,
}: {
  label: string;
  caption: string;
  tone: 'accept' | 'decline' | 'neutral';
  pressed?: boolean;
  onClick: () => void;
  icon: ReactNode;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const colours = {
    accept: 'bg-success text-white hover:brightness-110',
    decline: 'bg-destructive text-destructive-foreground hover:bg-destructive-hover',
    neutral: pressed
      ? 'bg-foreground text-background'
      : 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
  }[tone];
  return (
    <div className="flex flex-col items-center gap-2">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-pressed={pressed}
        onClick={onClick}
        className={`flex size-16 cursor-pointer items-center justify-center rounded-full shadow-md transition focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring sm:size-18 [&_svg]:size-7 ${colours}`}
      >
        {icon}
      </button>
      <span aria-hidden="true" className="text-sm text-muted-foreground">
        {caption}
      </span>
    </div>
  );
}
