import { Suspense, lazy } from 'react';
import { RadioTower } from 'lucide-react';

// Only a server nobody owns yet shows it: its code loads with this prompt, not with the main screen.
const ClaimServerPointer = lazy(() =>
  import('../settings/ClaimServerPointer').then((m) => ({ default: m.ClaimServerPointer })),
);

export type NoChannelPromptProps = { isAdmin: boolean };

/**
 * A non-admin's heading without a channel. Not the spec's "No channel selected": that is the title
 * of the toast the invite flow shows, and the two read as one message (decision 048).
 */
export const NO_CHANNEL_HEADING = 'You are not in a channel yet';

/**
 * Shown with no current channel. Admins get the spec's "Please select a channel to start" (they have
 * no automatic default); others only land here without any channel, so they are told how to get one.
 */
export function NoChannelPrompt({ isAdmin }: NoChannelPromptProps) {
  return (
    <section className="flex flex-1 flex-col items-center justify-center gap-4 rounded-3xl border border-dashed bg-card/60 px-6 py-16 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
        <RadioTower aria-hidden="true" className="size-8" />
      </span>
      <div className="grid gap-1">
        <h1 className="text-xl font-semibold">
          {isAdmin ? 'Please select a channel to start' : NO_CHANNEL_HEADING}
        </h1>
        <p className="max-w-sm text-sm text-muted-foreground">
          {isAdmin
            ? 'Pick one from Channels above, or create a new one.'
            : 'Ask a channel admin to add you, or open an invite link.'}
        </p>
      </div>
      <Suspense fallback={null}>
        <ClaimServerPointer />
      </Suspense>
    </section>
  );
}
