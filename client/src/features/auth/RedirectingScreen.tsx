import { Spinner } from '../../ui/Spinner';
import { Logo } from '../../ui/Logo';

/** Shown after "Continue to Sign In" while the browser leaves for the sign-in provider. */
export function RedirectingScreen() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 text-center">
      <Logo className="size-14" />
      <div className="flex flex-col items-center gap-2" aria-live="polite">
        <h1 className="font-display text-2xl font-bold">Connecting…</h1>
        <Spinner label="Redirecting to sign in…" />
      </div>
    </main>
  );
}
