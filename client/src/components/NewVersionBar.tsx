import { NEW_VERSION_TEXT, reloadForNewVersion, useNewVersion } from '../lib/pwa.ts';

/** A bar at the top of every page while a new version of the site waits to take over. */
export function NewVersionBar() {
  const waiting = useNewVersion();
  if (!waiting) return null;
  return (
    <div className="new-version-bar" role="status">
      <span>A new version of the site is ready.</span>
      <button type="button" className="button" onClick={reloadForNewVersion}>
        {NEW_VERSION_TEXT}
      </button>
    </div>
  );
}
