import { cn } from '../lib/cn';

/** Chirp's mark: a broadcast dot with sound waves on a teal tile (same drawing as favicon.svg). */
export function Logo({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      className={cn('size-9 shrink-0', className)}
    >
      <rect width="64" height="64" rx="16" className="fill-primary" />
      <g fill="none" strokeWidth="4.5" strokeLinecap="round" className="stroke-primary-foreground">
        <path d="M24 23a13 13 0 0 0 0 18" />
        <path d="M40 23a13 13 0 0 1 0 18" />
        <path d="M17 16a23 23 0 0 0 0 32" />
        <path d="M47 16a23 23 0 0 1 0 32" />
      </g>
      <circle cx="32" cy="32" r="5.5" className="fill-primary-foreground" />
    </svg>
  );
}
