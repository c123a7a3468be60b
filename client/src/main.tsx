import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { followSignIn } from './features/session/follow-sign-in';
import { queryClient } from './lib/query-client';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount Chirp into.');

// The signed-in runtime (socket, presence, voice, calls) lives above the routes, outside React.
followSignIn(queryClient);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
