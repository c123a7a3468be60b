import { Spinner } from '../../ui/Spinner';

/** Spec §2: shown while the signed-in state loads. */
export function LoadingScreen() {
  return (
    <main className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" label="Loading" className="flex-col" />
    </main>
  );
}
