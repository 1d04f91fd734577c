import { StrictMode, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Startup } from '../lib/startup-fetch.ts';
import { StandaloneAbout } from './StandaloneAbout.tsx';

/**
 * React on the About page, loaded after the first paint by ./start.ts: hydrates the prerendered page
 * (or renders it, on the dev server, which does not prerender) and resolves once React has committed,
 * so clicks held until then can be replayed.
 */
export function hydrateAbout(root: HTMLElement, startup: Promise<Startup>, print: boolean): Promise<void> {
  return new Promise((resolve) => {
    const app = (
      <StrictMode>
        <AboutDocument startup={startup} print={print} onMounted={resolve} />
      </StrictMode>
    );
    if (root.firstElementChild) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
}

/** First renders what the build prerendered (startup unknown), then the viewer's navbar once the startup calls answer. */
function AboutDocument({ startup, print, onMounted }: { startup: Promise<Startup>; print: boolean; onMounted: () => void }) {
  const [answers, setAnswers] = useState<Startup | null>(null);
  useEffect(() => {
    onMounted();
    let live = true;
    void startup.then((result) => {
      if (live) setAnswers(result);
    });
    return () => {
      live = false;
    };
  }, [startup, onMounted]);
  return <StandaloneAbout startup={answers} print={print} />;
}
