import type { ReactNode } from 'react';
import { useOnline } from '../lib/online.ts';

const OFFLINE_TEXT = 'You are offline';

/**
 * What a panel shows instead of its contents when they could not be loaded: that loading failed
 * (never an empty list, which would look like lost data), why, and a Retry button.
 */
function LoadFailed({ what, error, onRetry }: { what: string; error: { message: string } | null; onRetry: () => void }) {
  const online = useOnline();
  return (
    <div className="load-failed" role="alert">
      <p>
        <strong>{online ? `Could not load ${what}.` : `${OFFLINE_TEXT}: could not load ${what}.`}</strong>
        {online && error ? ` ${error.message}` : ''}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** A line across the top of every page while the browser is offline. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-banner" role="status">
      {/* House TODO and TODO keep their changes in the offline queue (lib/offline-queue.ts) and say so with their own badge. */}
      {OFFLINE_TEXT}. Changes to House TODO and TODO are kept and sent when the connection is back; others cannot be saved until then.
    </p>
  );
}

type Query<T> = { data: T | undefined; error: { message: string } | null; refetch: () => unknown };

/**
 * A query's three states in one place: its contents once loaded (with the failure above them when a
 * refresh fails), the failure with Retry when nothing could be loaded, else the loading line.
 */
export function Loaded<T>({ query, what, loading, children }: { query: Query<T>; what: string; loading: string; children: (data: T) => ReactNode }) {
  const failed = query.error ? <LoadFailed what={what} error={query.error} onRetry={() => void query.refetch()} /> : null;
  if (query.data !== undefined) {
    return (
      <>
        {failed}
        {children(query.data)}
      </>
    );
  }
  return failed ?? <p role="status">{loading}</p>;
}
