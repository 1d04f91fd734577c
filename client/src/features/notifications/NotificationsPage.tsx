import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { NOTIFICATION_KINDS } from '@site/contracts/notifications';
import { Loaded } from '../../components/Loaded.tsx';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /personal/notifications: the member's notifications, newest first, each linking to what it is about. */
export default function NotificationsPage() {
  useLive(['notifications']);
  useEffect(() => {
    document.title = 'Notifications';
  }, []);
  const list = trpc.notifications.list.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const utils = trpc.useUtils();
  const refresh = () => void Promise.all([utils.notifications.list.invalidate(), utils.notifications.unreadCount.invalidate()]);
  const markRead = trpc.notifications.markRead.useMutation({ onSuccess: refresh });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = items.some((i) => !i.read);
  return (
    <main className="page narrow-page notifications-page">
      <header className="page-hero">
        <h1>Notifications</h1>
        <p className="lead">What happened on the site that concerns you, newest first.</p>
      </header>
      <p>
        <button type="button" className="button" disabled={!unread || markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
          Mark all read
        </button>{' '}
        <Link className="button" to="/personal/account">
          Settings
        </Link>
      </p>
      <Loaded query={list} what="your notifications" loading="Loading notifications...">
        {() =>
          items.length === 0 ? (
            <p>Nothing yet.</p>
          ) : (
            <ul className="notification-list" data-testid="notification-list">
              {items.map((item) => (
                <li key={item.id} className={item.read ? 'notification read' : 'notification unread'}>
                  <Link to={item.url} onClick={() => !item.read && markRead.mutate({ ids: [item.id] })}>
                    <strong>{item.title}</strong>
                  </Link>
                  {item.body && <p>{item.body}</p>}
                  <p className="small">
                    {NOTIFICATION_KINDS[item.kind].label} · <time dateTime={item.createdAt}>{when(item.createdAt)}</time>
                    {item.done ? ' · done' : !item.read && ' · new'}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {list.hasNextPage && (
        <button type="button" className="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Older notifications
        </button>
      )}
    </main>
  );
}
