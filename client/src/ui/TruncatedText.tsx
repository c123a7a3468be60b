import { useLayoutEffect, useState, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Hint } from './Hint';

export type TruncatedTextProps = {
  /** The whole text: shown cut off with an ellipsis where it does not fit, and in full in a tooltip. */
  text: string;
  className?: string;
  /** Rendered after the text inside the same line (e.g. " (you)"). */
  children?: ReactNode;
};

/**
 * One line of text cut off with an ellipsis where it does not fit. Only while it is cut off does
 * it show the whole text in a tooltip, and only then can the keyboard reach it (Tab shows the
 * tooltip too); a text that fits adds no tab stop.
 */
export function TruncatedText({ text, className, children }: TruncatedTextProps) {
  // State, not a ref: the element is rendered afresh once the tooltip's code has loaded.
  const [element, setElement] = useState<HTMLSpanElement | null>(null);
  const [truncated, setTruncated] = useState(false);
  // Measured again when the text changes (the box may keep its width) and when the box resizes.
  useLayoutEffect(() => {
    if (!element) return;
    const check = () => setTruncated(element.scrollWidth > element.clientWidth);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, text]);
  return (
    <Hint content={text} disabled={!truncated}>
      <span
        ref={setElement}
        tabIndex={truncated ? 0 : undefined}
        className={cn(
          'block min-w-0 truncate rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          className,
        )}
      >
        {text}
        {children}
      </span>
    </Hint>
  );
}
