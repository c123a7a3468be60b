import { Suspense, lazy, useState } from 'react';
import { useToasts } from './toast-store';

const Toaster = lazy(() => import('./Toaster').then((module) => ({ default: module.Toaster })));

/**
 * The toast stack, loaded with the first toast: most first visits never raise one, so the landing
 * page does not carry the toast primitives (and their dismissable layer) in its initial script.
 */
export function LazyToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  // Adjusting state while rendering: once needed, the stack stays mounted.
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
