import { Link } from 'wouter';
import { buttonClasses } from '../../ui/Button';
import { Logo } from '../../ui/Logo';

/** Any unknown route, signed in or not (spec §2). */
export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 text-center">
      <Logo className="size-14 opacity-90" />
      <div className="grid gap-2">
        <h1 className="font-display text-3xl font-bold tracking-tight">404 Page Not Found</h1>
        <p className="text-muted-foreground">There is nothing at this address.</p>
      </div>
      <Link href="/" className={buttonClasses('outline')}>
        Go to Chirp
      </Link>
    </main>
  );
}
