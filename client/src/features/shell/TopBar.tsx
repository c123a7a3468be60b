import { useCallback, type ReactNode } from 'react';
import { Hash, LogOut, Settings, Share2, Users } from 'lucide-react';
import { useLocation } from 'wouter';
import { Logo } from '../../ui/Logo';
import { signOut } from '../auth/sign-in';
import { TopBarButton } from './TopBarButton';

export type TopBarProps = {
  /** Badges beside the product name (Voice Ready / Connecting, Idle - Saving Minutes). */
  status?: ReactNode;
  /** Replaces the plain Contacts button, e.g. with a dropdown whose trigger is a `TopBarButton`. */
  contacts?: ReactNode;
  /** Replaces the plain Channels button. */
  channels?: ReactNode;
  /** Replaces the plain Share button, e.g. with the invite-link dialog. */
  share?: ReactNode;
};

/**
 * Keeps `--top-bar-height` on the document at the bar's height while it is shown: phones show
 * toasts just under it (`ui/Toast.tsx`).
 */
function useTopBarHeightVariable() {
  return useCallback((header: HTMLElement | null) => {
    if (!header) return;
    const style = document.documentElement.style;
    const update = () => style.setProperty('--top-bar-height', `${header.offsetHeight}px`);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(header);
    return () => {
      observer?.disconnect();
      style.removeProperty('--top-bar-height');
    };
  }, []);
}

/** The main screen's top bar (spec §2): product name, status, then Contacts … Logout. */
export function TopBar({ status, contacts, channels, share }: TopBarProps) {
  const [, navigate] = useLocation();
  const measure = useTopBarHeightVariable();
  return (
    <header
      ref={measure}
      className="sticky top-0 z-40 border-b bg-background/90 pt-[env(safe-area-inset-top)] backdrop-blur-md"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 sm:px-6">
        <div className="flex min-w-0 flex-1 items-center gap-2.5 py-1 sm:py-0">
          <Logo className="size-8" />
          <span className="font-display text-xl font-extrabold tracking-tight">Chirp</span>
          {status ? (
            <div className="flex min-w-0 flex-wrap items-center gap-1.5">{status}</div>
          ) : null}
        </div>
        <nav
          aria-label="Main"
          className="order-last grid w-full grid-cols-5 gap-1 sm:order-none sm:flex sm:w-auto sm:items-center"
        >
          {contacts ?? <TopBarButton icon={Users} label="Contacts" />}
          {channels ?? <TopBarButton icon={Hash} label="Channels" />}
          {share ?? <TopBarButton icon={Share2} label="Share" />}
          <TopBarButton icon={Settings} label="Settings" onClick={() => navigate('/settings')} />
          <TopBarButton icon={LogOut} label="Logout" onClick={signOut} />
        </nav>
      </div>
    </header>
  );
}
