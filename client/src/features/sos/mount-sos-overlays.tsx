import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from '../../lib/query-client';

const SosOverlays = lazy(() => import('./SosOverlays').then((m) => ({ default: m.SosOverlays })));

/**
 * The SOS screens get their own React root, mounted by the signed-in session like the rest of its
 * runtime: they sit above every route (an alert reaches Settings too) and their code stays out of
 * the first load. Full-screen dialogs portal to the body, so the app's root is made inert under
 * them as under any dialog. Returns unmount.
 */
export function mountSosOverlays(doc: Document = document): () => void {
  const container = doc.createElement('div');
  container.dataset.sosRoot = '';
  doc.body.append(container);
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <SosOverlays />
        </Suspense>
      </QueryClientProvider>
    </StrictMode>,
  );
  return () => {
    root.unmount();
    container.remove();
  };
}
