import './lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/site.css';
import { App } from './app/App.tsx';
import { preloadPage } from './app/router.tsx';
import { registerServiceWorker } from './lib/pwa.ts';

// The first page's chunk comes beside the shell's startup calls, not after them.
preloadPage(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The build's service worker (offline reading, new versions); the dev server has none.
if (import.meta.env.PROD) registerServiceWorker();
