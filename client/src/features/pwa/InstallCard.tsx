import { Download, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../ui/Button';
import {
  INSTALL_CARD_DELAY_MS,
  INSTALL_DISMISSED_KEY,
  installCardAllowed,
} from './install-card-timing';

/** Chromium's install offer; not in the DOM typings. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const isInstalled = () =>
  window.matchMedia?.('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

const dismissedAt = () => {
  const raw = localStorage.getItem(INSTALL_DISMISSED_KEY);
  return raw === null ? null : Number(raw);
};

/** Spec §2 "Install-app card": offered 30 s after the browser allows installing, unless installed. */
export function InstallCard() {
  const [offer, setOffer] = useState<BeforeInstallPromptEvent | null>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onOffer = (event: Event) => {
      event.preventDefault();
      setOffer(event as BeforeInstallPromptEvent);
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (installCardAllowed({ installed: isInstalled(), dismissedAt: dismissedAt(), now: Date.now() })) setVisible(true);
      }, INSTALL_CARD_DELAY_MS);
    };
    const onInstalled = () => setVisible(false);
    window.addEventListener('beforeinstallprompt', onOffer);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('beforeinstallprompt', onOffer);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);

  if (!visible || !offer) return null;

  const dismiss = () => {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
    setVisible(false);
  };
  const install = async () => {
    await offer.prompt();
    const { outcome } = await offer.userChoice;
    if (outcome === 'dismissed') dismiss();
    else setVisible(false);
  };

  return (
    <section
      aria-labelledby="install-card-title"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto max-w-md rounded-2xl border border-border bg-card p-4 shadow-lg sm:inset-x-auto sm:right-4"
    >
      <div className="flex items-start gap-3">
        <Download aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
        <div className="flex-1">
          <h2 id="install-card-title" className="font-semibold">
            Install Chirp
          </h2>
          <p className="text-sm text-muted-foreground">Open it from your home screen and talk with one tap.</p>
          <div className="mt-3 flex gap-2">
            <Button size="sm" onClick={() => void install()}>
              Install
            </Button>
            <Button size="sm" variant="ghost" onClick={dismiss}>
              Not now
            </Button>
          </div>
        </div>
        <Button size="icon" variant="ghost" aria-label="Dismiss install card" onClick={dismiss}>
          <X aria-hidden className="size-4" />
        </Button>
      </div>
    </section>
  );
}
