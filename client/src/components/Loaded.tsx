import type { ReactNode } from 'react';
import { useOnline } from '../lib/online.ts';
import { useOfflineReadiness } from '../lib/pwa.ts';

const OFFLINE_TEXT = 'You are offline';

const keptAt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * When this page (the app) started. An answer read before it is the copy kept on the device for
 * offline reading (lib/persist.ts fills it in when a call fails): the page shows it, but marked as not
 * refreshed, even once the failure that brought it in is no longer on the query.
 */
const APP_STARTED_AT = Date.now();
const isKeptCopy = (updatedAt: number | undefined) => updatedAt !== undefined && updatedAt > 0 && updatedAt < APP_STARTED_AT;

type QueryError = { message: string; data?: unknown; meta?: unknown; cause?: unknown };

/**
 * Why a call failed, in words: the server's own message when it sent one (a tRPC error carries
 * `data`), else the HTTP status it answered with (a proxy's 500 page is no message to show), else
 * that it gave no answer.
 */
export function failureReason(error: QueryError): string {
  if (error.data) return error.message;
  const status = (error.meta as { response?: { status?: unknown } } | undefined)?.response?.status;
  if (typeof status === 'number' && status >= 400) return `The server answered with an error (${status}).`;
  // An answer that is not the site's data (a proxy's error page) fails to parse as JSON.
  if (error.cause instanceof SyntaxError) return 'The server answered with an error.';
  return 'The server did not answer.';
}

/** A failure a second try cannot mend: the thing asked for does not exist (tRPC's NOT_FOUND, an HTTP 404). */
export function isNotFound(error: QueryError | null): boolean {
  const data = error?.data as { code?: unknown; httpStatus?: unknown } | undefined;
  return data?.code === 'NOT_FOUND' || data?.httpStatus === 404;
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" className="button" onClick={onRetry}>
      Retry
    </button>
  );
}

/**
 * What a panel shows instead of its contents when they could not be loaded: that loading failed
 * (never an empty list, which would look like lost data), why, and a Retry button unless the thing
 * does not exist.
 */
export function LoadFailed({ what, error, onRetry }: { what: string; error: QueryError | null; onRetry: () => void }) {
  const online = useOnline();
  return (
    <div className="load-failed" role="alert">
      <p>
        <strong>{online ? `Could not load ${what}.` : `${OFFLINE_TEXT}: could not load ${what}.`}</strong>
        {online && error ? ` ${failureReason(error)}` : ''}
      </p>
      {!isNotFound(error) && <RetryButton onRetry={onRetry} />}
    </div>
  );
}

/**
 * Above contents that could not be refreshed (a kept offline copy, or the last answer before a
 * refresh failed): they are shown, marked with the time they are from. Online, why they are not fresh,
 * and Retry; offline, only the time (the banner says the site is offline, and the page reads again by
 * itself when it is back).
 */
function NotRefreshed({ what, error, updatedAt, onRetry }: { what: string; error: QueryError | null; updatedAt: number | undefined; onRetry: () => void }) {
  const online = useOnline();
  const time = updatedAt ? keptAt.format(updatedAt) : null;
  if (!online) {
    return (
      <p className="load-stale-note" role="status">
        {`Showing ${what} as last loaded${time ? ` on ${time}` : ''}.`}
      </p>
    );
  }
  const from = time ? ` from ${time}` : '';
  return (
    <div className="load-failed load-stale" role="alert">
      <p>
        <strong>{`Could not refresh ${what}`}</strong>
        {`: showing the copy${from}.`}
        {error ? ` ${failureReason(error)}` : ''}
      </p>
      <RetryButton onRetry={onRetry} />
    </div>
  );
}

export const OFFLINE_BANNER_TEXT = 'You are offline: changes to House, Todo and Chores are sent when the connection is back, others cannot be saved until then.';
export const NOT_READY_OFFLINE_TEXT =
  "You are offline, and this device is not ready to work offline yet: keep this page open (reloading it would show the browser's own error page).";

/** The one line across the top of every page that says the site cannot be reached, and what that means. */
export function OfflineBanner() {
  const online = useOnline();
  const { readiness } = useOfflineReadiness();
  if (online) return null;
  return (
    <p className="offline-banner" role="status">
      {/* House, Todo and Chores keep their changes in the offline queue (lib/offline-queue.ts) and count them with their own badge. */}
      {readiness === 'preparing' ? NOT_READY_OFFLINE_TEXT : OFFLINE_BANNER_TEXT}
    </p>
  );
}

/** The parts of a react-query (or tRPC) query the page's three states are told from. */
export type LoadedQuery<T> = {
  data: T | undefined;
  error: QueryError | null;
  refetch: () => unknown;
  /** 'paused': react-query holds the call back until the site is reachable again. */
  fetchStatus?: 'fetching' | 'paused' | 'idle';
  dataUpdatedAt?: number;
};

/**
 * Only what went wrong with a query, for a page that draws its own loading state: the failure (or
 * "You are offline" at once) with Retry while there is nothing to show, the not-refreshed mark above
 * what is shown; nothing while all is well.
 */
export function LoadProblem({ query, what }: { query: LoadedQuery<unknown>; what: string }) {
  const online = useOnline();
  const retry = () => void query.refetch();
  const kept = query.data !== undefined && isKeptCopy(query.dataUpdatedAt);
  if (!query.error && online && query.fetchStatus !== 'paused' && !kept) return null;
  if (query.data !== undefined) return <NotRefreshed what={what} error={query.error} updatedAt={query.dataUpdatedAt} onRetry={retry} />;
  return <LoadFailed what={what} error={query.error} onRetry={retry} />;
}

/**
 * A query's states in one place: its contents once loaded; the same contents marked as not
 * refreshed, with Retry, when a refresh failed or the site is unreachable (a kept offline copy);
 * the failure with Retry when nothing could be loaded, at once when the site is unreachable (a call
 * held back offline would otherwise say "Loading" forever); else the loading line.
 */
export function Loaded<T>({ query, what, loading, children }: { query: LoadedQuery<T>; what: string; loading: string; children: (data: T) => ReactNode }) {
  const online = useOnline();
  const problem = <LoadProblem query={query} what={what} />;
  if (query.data !== undefined) {
    return (
      <>
        {problem}
        {children(query.data)}
      </>
    );
  }
  if (query.error || !online || query.fetchStatus === 'paused') return problem;
  return <p role="status">{loading}</p>;
}
