import { REMOTE_AUDIO_CONTAINER_ID } from '../features/voice/transport/remote-audio';
import { SignedInCallOverlays } from '../features/calls/SignedInCallOverlays';
import { InstallCard } from '../features/pwa/InstallCard';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

export function App() {
  return (
    <Providers>
      <AppRoutes />
      <SignedInCallOverlays />
      <InstallCard />
      <UpdatePrompt />
      {/* Spec §2: the page container remote audio elements are attached to, on every screen. */}
      <div id={REMOTE_AUDIO_CONTAINER_ID} hidden />
    </Providers>
  );
}
