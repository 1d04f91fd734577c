import { useEffect, useState } from 'react';
import { useOfflineReadiness } from '../lib/pwa.ts';

export const PREPARING_OFFLINE_TEXT = 'Getting ready to work offline…';
export const READY_OFFLINE_TEXT = 'Ready to work offline: this site now opens on this device with no network.';
/** How long "Ready to work offline" stays once said. */
const READY_SHOWN_MS = 8_000;

/**
 * On the first visit of a browser, while the service worker caches the site, and once it has: a small
 * note in a corner of the page (fixed, so nothing moves), which says when the site will open with no
 * network. Later visits say nothing (the site is ready from the start). Dismiss hides it at once (on a
 * phone it may sit over the buttons at the bottom of the screen, the meal plan's Save and Clear).
 */
export function OfflineReady() {
  const { readiness, justReady } = useOfflineReadiness();
  const [shown, setShown] = useState(true);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (!justReady) return;
    setShown(true);
    const timer = setTimeout(() => setShown(false), READY_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [justReady]);
  const text = dismissed ? null : readiness === 'preparing' ? PREPARING_OFFLINE_TEXT : justReady && shown ? READY_OFFLINE_TEXT : null;
  return (
    <div className="offline-ready" hidden={text === null}>
      <p role="status">{text}</p>
      <button type="button" className="offline-ready-dismiss" aria-label="Dismiss the offline note" onClick={() => setDismissed(true)}>
        ×
      </button>
    </div>
  );
}
