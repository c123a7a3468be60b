import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/cn';

export type SpinnerProps = {
  /** Visible text next to the spinner; also its accessible name. */
  label?: string;
  className?: string;
  size?: 'sm' | 'default' | 'lg';
};

const sizeClasses = { sm: 'size-4', default: 'size-6', lg: 'size-10' } as const;

export function Spinner({ label, className, size = 'default' }: SpinnerProps) {
  return (
    <span
      role="status"
      aria-label={label ? undefined : 'Loading'}
      className={cn('inline-flex items-center gap-3', className)}
    >
      <LoaderCircle
        aria-hidden="true"
        className={cn('text-primary motion-safe:animate-spin', sizeClasses[size])}
      />
      {label ? <span className="text-sm font-medium text-muted-foreground">{label}</span> : null}
    </span>
  );
}
