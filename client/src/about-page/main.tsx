import { StrictMode, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import '../styles/site.css';
import { applyColors } from '../lib/colors.ts';
import { loadStartup, type Startup } from '../lib/startup-fetch.ts';
import { StandaloneAbout } from './StandaloneAbout.tsx';

// Ask before React starts: the answers are usually back by the time hydration ends.
const startupPromise = loadStartup();

// The app's rule: an address containing 'print' shows the page without navbar and loading cover.
const print = `${window.location.pathname}${window.location.search}`.includes('print');

function AboutDocument() {
  const [startup, setStartup] = useState<Startup | null>(null);
  useEffect(() => {
    let live = true;
    void startupPromise.then((result) => {
      if (!live) return;
      if (result.colors) applyColors(result.colors);
      setStartup(result);
    });
    return () => {
      live = false;
    };
  }, []);
  return <StandaloneAbout startup={startup} print={print} />;
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const app = (
  <StrictMode>
    <AboutDocument />
  </StrictMode>
);
// The build prerenders the page (for the address without 'print'); the dev server does not.
if (root.firstElementChild && !print) hydrateRoot(root, app);
else {
  root.replaceChildren();
  createRoot(root).render(app);
}
