import { cn } from '../../lib/cn';
import { initials } from '../members/UserAvatar';

/** The other party's picture, or their initials (up to 2 letters, spec §2), large. */
export function CallAvatar({
  name,
  imageUrl,
  ringing = false,
}: {
  name: string;
  imageUrl: string | null;
  ringing?: boolean;
}) {
  return (
    <span className="relative flex size-32 items-center justify-center sm:size-36">
      {ringing ? (
        <span
          aria-hidden="true"
          className="absolute inset-0 animate-ping rounded-full bg-primary/25 motion-reduce:animate-none"
        />
      ) : null}
      <span
        data-testid="call-initials"
        className={cn(
          'relative flex size-full items-center justify-center overflow-hidden rounded-full',
          'bg-primary-soft font-display text-4xl font-bold text-primary-soft-foreground shadow-lg',
        )}
      >
        {imageUrl ? (
          <img
            src={imageUrl}
            alt=""
            className="size-full object-cover"
            referrerPolicy="no-referrer"
          />
        ) : (
          initials(name) || '?'
        )}
      </span>
    </span>
  );
}
