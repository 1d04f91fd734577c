import './lib/zod-jitless.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/site.css';
import { App, createQueryClient, fetchFirstPage, fetchStartup } from './app/App.tsx';
import { preloadPage } from './app/router.tsx';
import { createTrpcClient } from './lib/trpc.ts';
import { registerServiceWorker } from './lib/pwa.ts';

/**
 * How long the first render waits for the startup calls, the first page's chunk and the calls its
 * largest paint needs (app/first-page-data.ts). index.html asks for them with itself (client/start-hints.ts,
 * and the server adds the page's chunks and calls), so they are
 * usually there by the time this script runs: React then renders the finished page in one go, instead
 * of the cover, then the navbar, then the page (three renders, three layouts on a slow phone). The
 * cover of index.html stays meanwhile; past this wait the shell renders as before, with its own cover
 * until the calls answer (a slow network, offline with the answers kept in IndexedDB).
 */
const FIRST_RENDER_WAIT_MS = 3000;

const queryClient = createQueryClient();
const trpcClient = createTrpcClient();

// Not a top-level await: the pages' chunks import modules of this one, which must not wait on it.
void Promise.race([
  Promise.allSettled([preloadPage(window.location.pathname), fetchStartup(queryClient, trpcClient), fetchFirstPage(queryClient, window.location.pathname)]),
  new Promise((resolve) => setTimeout(resolve, navigator.onLine ? FIRST_RENDER_WAIT_MS : 0)),
]).then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  // In a transition, so React renders the first page in slices and yields to the browser between them
  // (input stays answered while a phone works through the first render; Lighthouse's blocking time).
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App queryClient={queryClient} trpcClient={trpcClient} />
      </StrictMode>,
    );
  });
});

// The build's service worker (offline reading, new versions); the dev server has none. It fetches
// its precache (the offline pages' chunks among it) itself: the page evaluates none of them.
if (import.meta.env.PROD) registerServiceWorker();
