import type { ReactNode } from 'react';
import { TopBar, type TopBarProps } from './TopBar';

export type AppLayoutProps = TopBarProps & { children: ReactNode };

/** The signed-in main layout: top bar over a full-height content column. */
export function AppLayout({ children, ...topBar }: AppLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <TopBar {...topBar} />
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
