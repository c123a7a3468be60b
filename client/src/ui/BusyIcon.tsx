import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/cn';

/**
 * A spinning icon for inside a busy button. Unlike `Spinner` it is not a live region, so the button
 * keeps its name ("Import", not "Loading Import") while the button's `disabled` state tells the story.
 */
export function BusyIcon({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('motion-safe:animate-spin', className)} />;
}
