import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '../../ui/Button';

export type PageLayoutProps = {
  title: string;
  /** Where Back goes; the main screen by default. */
  backTo?: string;
  children?: ReactNode;
};

/** A secondary screen (settings, upgrade): a Back button and the screen's title over its content. */
export function PageLayout({ title, backTo = '/', children }: PageLayoutProps) {
  const [, navigate] = useLocation();
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col gap-6 px-4 pt-[max(1rem,env(safe-area-inset-top))] pb-10 sm:px-6 sm:pt-8">
      <header className="flex items-center gap-3">
        <Button variant="ghost" onClick={() => navigate(backTo)} className="-ml-2">
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
      </header>
      <main className="flex flex-col gap-6">
        <h1 className="font-display text-3xl font-bold tracking-tight">{title}</h1>
        {children}
      </main>
    </div>
  );
}
