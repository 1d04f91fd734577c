import { useState } from 'react';
import { allows, procedures } from '@site/contracts/permissions';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { currentPort, viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Calendar feed": the member's private address of the meal plan and chores for Google, Apple or
 * Proton Calendar. Kept as a hash like API tokens, so it is shown when made; "Reset address" makes a
 * new one and the old one stops answering at once.
 */
function Feed() {
  const feed = trpc.calendar.feed.useQuery();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const reset = trpc.calendar.reset.useMutation({
    onMutate: () => setError(null),
    onSuccess: (data) => utils.calendar.feed.setData(undefined, { ...data, url: null }),
    onError: (e) => setError(e.message),
  });
  const settings = trpc.calendar.settings.useMutation({
    onSuccess: (data) => utils.calendar.feed.setData(undefined, data),
    onError: (e) => setError(e.message),
  });
  const url = reset.data?.url ?? null;
  return (
    <Loaded query={feed} what="the calendar feed" loading="Loading the calendar feed...">
      {(data) => (
        <>
          {url ? (
            <div className="confirm-box" role="status" aria-label="Calendar address">
              <p>Paste this address into your calendar app. Copy it now: like a token, it is shown only this once.</p>
              <CopyButton label="Calendar address" text={url} alert="Address copied" />
            </div>
          ) : data.createdAt ? (
            <p>
              Your address was made {when(data.createdAt)}. It is kept like a password and shown only when made: lost it? Reset the address and subscribe to the new one.
            </p>
          ) : (
            <p>No address yet.</p>
          )}
          {data.createdAt && (
            <label className="checkbox">
              <input type="checkbox" checked={data.everyone} disabled={settings.isPending} onChange={(e) => settings.mutate({ everyone: e.target.checked })} />
              Everyone&apos;s chores, not only mine
            </label>
          )}
          <div className="link-row">
            <button
              type="button"
              className="button"
              disabled={reset.isPending}
              onClick={() => {
                if (!data.createdAt || window.confirm('Make a new address? Calendars subscribed to the old one stop updating.')) reset.mutate();
              }}
            >
              {data.createdAt ? 'Reset address' : 'Make my address'}
            </button>
          </div>
          <ErrorBubble message={error} />
        </>
      )}
    </Loaded>
  );
}

export function CalendarFeedCard() {
  const status = trpc.auth.status.useQuery();
  if (!allows(procedures['calendar.feed'], viewerOf(status.data), currentPort())) return null;
  return (
    <section className="card" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">Calendar feed</h2>
      <p>
        The meal plan (each meal at its time, who cooks) and your chores, in Google, Apple or Proton Calendar: subscribe to the address (&quot;From URL&quot; in Google
        Calendar, &quot;New Calendar Subscription&quot; on Apple). Read-only; the apps check it every few hours.
      </p>
      <Feed />
    </section>
  );
}
