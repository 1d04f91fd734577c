import { StrictMode, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import '../styles/site.css';
import { applyColors } from '../lib/colors.ts';
import { loadStartup, type Startup } from '../lib/startup-fetch.ts';
import { StandaloneAbout } from './StandaloneAbout.tsx';

// Ask before React starts: the answers are usually back by the time hydration ends.
const startupPromise = loadStartup();

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
  return <StandaloneAbout startup={startup} />;
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const app = (
  <StrictMode>
    <AboutDocument />
  </StrictMode>
);
// The build prerenders the page; the dev server does not.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
