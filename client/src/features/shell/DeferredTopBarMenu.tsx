import { useEffect, useState, type ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import { TopBarButton } from './TopBarButton';

export type DeferredMenu = ComponentType<{ defaultOpen?: boolean }>;

export type DeferredTopBarMenuProps = {
  icon: LucideIcon;
  label: string;
  /** Loads the real menu (a module-level function, so it is stable). */
  load: () => Promise<DeferredMenu>;
};

/**
 * A top-bar menu whose code (menu primitives, positioning, dialogs) loads right after the screen
 * first renders instead of before it. Until then the same button stands in; a press meanwhile
 * opens the menu as soon as it is there.
 */
export function DeferredTopBarMenu({ icon, label, load }: DeferredTopBarMenuProps) {
  const [Menu, setMenu] = useState<DeferredMenu | null>(null);
  const [openWhenReady, setOpenWhenReady] = useState(false);
  useEffect(() => {
    let live = true;
    load().then(
      (component) => {
        if (live) setMenu(() => component);
      },
      (error: unknown) => console.error(`The ${label} menu did not load`, error),
    );
    return () => {
      live = false;
    };
  }, [load, label]);
  if (Menu) return <Menu defaultOpen={openWhenReady} />;
  return (
    <TopBarButton
      icon={icon}
      label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setOpenWhenReady(true)}
    />
  );
}
