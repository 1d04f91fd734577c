import './lib/zod-jitless.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/site.css';
import { App } from './app/App.tsx';
import { preloadPage } from './app/router.tsx';
import { registerServiceWorker } from './lib/pwa.ts';

// The first page's chunk comes beside the shell's startup calls, not after them.
preloadPage(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// In a transition, so React renders the first page in slices and yields to the browser between them
// (input stays answered while a phone works through the first render; Lighthouse's blocking time).
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

// The build's service worker (offline reading, new versions); the dev server has none.
if (import.meta.env.PROD) registerServiceWorker();
