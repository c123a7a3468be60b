import { useEffect, useState, type FocusEvent, type ReactElement, type ReactNode } from 'react';
import type * as TooltipExports from './Tooltip';

type TooltipModule = typeof TooltipExports;

// The tooltip's code (positioning, layers) loads just after the first hint renders, not before the
// screen: the main screen's first load stays as small as it was before any control had a tooltip.
let loaded: TooltipModule | null = null;
let loading: Promise<TooltipModule> | null = null;

function loadTooltip(): Promise<TooltipModule> {
  loading ??= import('./Tooltip').then((module) => (loaded = module));
  return loading;
}

export type HintProps = {
  /** What the tooltip says; it adds to the control's name, it does not repeat it. */
  content: ReactNode;
  /** One element that takes a ref and props: a button, a link, a focusable span. */
  children: ReactElement;
  /** Keeps the tooltip closed (e.g. a name that is not cut off), with the same element tree. */
  disabled?: boolean;
  side?: 'top' | 'right' | 'bottom' | 'left';
};

/** How the user last reached for the page: focus after a key shows a tooltip, after a press not. */
let lastInput: 'keyboard' | 'pointer' = 'keyboard';
let tracking = false;

function trackInputKind(): void {
  if (tracking) return;
  tracking = true;
  const capture = { capture: true, passive: true };
  document.addEventListener('keydown', () => (lastInput = 'keyboard'), capture);
  document.addEventListener('pointerdown', () => (lastInput = 'pointer'), capture);
}

/**
 * Keyboard focus opens the tooltip; the focus a menu or dialog hands back after a click does not
 * (it would stand over the screen until the pointer moved). Stopping the event here keeps Radix's
 * own focus handler from running.
 */
function skipAfterPointer(event: FocusEvent<HTMLElement>): void {
  if (lastInput === 'pointer') event.preventDefault();
}

/**
 * A tooltip on hover and on keyboard focus, with the spec's timing (`Tooltip.tsx`). Until its code
 * has loaded the child renders alone, and works the same.
 */
export function Hint({ content, children, disabled = false, side }: HintProps) {
  const [module, setModule] = useState<TooltipModule | null>(loaded);
  useEffect(() => {
    trackInputKind();
    if (module) return;
    let live = true;
    loadTooltip().then(
      (next) => {
        if (live) setModule(next);
      },
      (error: unknown) => console.error('The tooltip did not load', error),
    );
    return () => {
      live = false;
    };
  }, [module]);
  if (!module) return children;
  const { Tooltip, TooltipTrigger, TooltipContent } = module;
  return (
    <Tooltip open={disabled ? false : undefined}>
      <TooltipTrigger asChild onFocus={skipAfterPointer}>
        {children}
      </TooltipTrigger>
      <TooltipContent side={side}>{content}</TooltipContent>
    </Tooltip>
  );
}
