import { RadioTower } from 'lucide-react';
import { AppLayout } from '../shell/AppLayout';

/** The signed-in main screen. Channels, voice and calls plug into the layout as they arrive. */
export function MainScreen() {
  return (
    <AppLayout>
      <section className="flex flex-1 flex-col items-center justify-center gap-4 rounded-3xl border border-dashed bg-card/60 px-6 py-16 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <RadioTower aria-hidden="true" className="size-8" />
        </span>
        <div className="grid gap-1">
          <h1 className="text-xl font-semibold">No channel selected</h1>
          <p className="max-w-sm text-sm text-muted-foreground">
            Pick one from the menu above to start talking.
          </p>
        </div>
      </section>
    </AppLayout>
  );
}
