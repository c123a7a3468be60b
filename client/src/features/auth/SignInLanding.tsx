import { Suspense, lazy, useState } from 'react';
import { useSearch } from 'wouter';
import { LogIn } from 'lucide-react';
import { Button } from '../../ui/Button';
import { Logo } from '../../ui/Logo';
import { inviteTokenOf } from '../invites/invite-link-token';
import { Benefits } from './Benefits';
import { RedirectingScreen } from './RedirectingScreen';
import { startSignIn } from './sign-in';
import { TermsNotice } from './TermsNotice';

// Loaded only on the page an invite link opens: other visitors do not download it.
const InviteWelcome = lazy(() =>
  import('../invites/InviteWelcome').then((m) => ({ default: m.InviteWelcome })),
);

/** What signed-out visitors see on every app route (spec §2, §6). */
export function SignInLanding() {
  const [redirecting, setRedirecting] = useState(false);
  const invited = inviteTokenOf(useSearch()) !== null;

  if (redirecting) return <RedirectingScreen />;

  const continueToSignIn = () => {
    setRedirecting(true);
    startSignIn();
  };

  return (
    <div className="min-h-dvh bg-[radial-gradient(ellipse_90%_55%_at_50%_-10%,var(--color-primary-soft),transparent)]">
      <main className="mx-auto grid min-h-dvh w-full max-w-5xl content-center gap-10 px-5 py-10 sm:px-8 lg:grid-cols-2 lg:items-center lg:gap-16">
        <section className="flex flex-col gap-6" aria-labelledby="landing-title">
          <div className="flex items-center gap-3">
            <Logo className="size-12" />
            <span className="font-display text-3xl font-extrabold tracking-tight">Chirp</span>
          </div>
          <div className="grid gap-3">
            <h1
              id="landing-title"
              className="font-display text-3xl font-bold tracking-tight text-balance sm:text-4xl"
            >
              Welcome to Chirp
            </h1>
            <p className="max-w-prose text-base text-muted-foreground sm:text-lg">
              Push-to-talk voice for families, friends and teams. Tap once and you are on the air.
            </p>
          </div>
          <div className="grid gap-3 sm:max-w-sm">
            {invited ? (
              <Suspense fallback={null}>
                <InviteWelcome />
              </Suspense>
            ) : null}
            <Button size="lg" className="w-full" onClick={continueToSignIn}>
              <LogIn aria-hidden="true" />
              Continue to Sign In
            </Button>
            <TermsNotice />
          </div>
        </section>
        <Benefits />
      </main>
    </div>
  );
}
