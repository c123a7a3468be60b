import { cn } from '../../lib/cn';

/** Up to two initials of a display name ("Ada Lovelace" → "AL", "ada@x.test" → "A"). */
export function initials(name: string): string {
  const words = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

export type UserAvatarProps = {
  name: string;
  imageUrl?: string | null;
  className?: string;
};

/** A round picture, or the initials when there is none. Decorative: the name is always shown beside it. */
export function UserAvatar({ name, imageUrl, className }: UserAvatarProps) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-soft text-xs font-semibold text-primary-soft-foreground',
        className,
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
  );
}
