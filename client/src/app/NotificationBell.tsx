import { Link } from 'react-router-dom';
import { useLive } from '../lib/live.ts';
import { trpc } from '../lib/trpc.ts';

/**
 * The bell with the unread count, kept live by the feed (area `notifications`, told to this member
 * only). Loaded lazily for members, so the live feed's code stays out of the shell.
 */
export default function NotificationBell() {
  useLive(['notifications']);
  const unread = trpc.notifications.unreadCount.useQuery();
  const count = unread.data?.count ?? 0;
  const words = count === 0 ? 'Notifications' : `Notifications: ${count} unread`;
  return (
    <Link to="/personal/notifications" className="notification-bell" aria-label={words} title={words} data-testid="notification-bell">
      <span aria-hidden="true">🔔</span>
      {count > 0 && (
        <span className="nav-badge" data-testid="notification-count">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
