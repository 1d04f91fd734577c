import { Link } from 'react-router-dom';

/**
 * The navbar's bell: a link to the notifications with the unread count. The shell draws it with no
 * count until the page has loaded and is idle; NotificationBell (its own chunk, with the live feed)
 * then reads the count and keeps it live.
 */
export function BellLink({ count }: { count: number }) {
  const words = count === 0 ? 'Notifications' : `Notifications: ${count} unread`;
  return (
    <Link to="/personal/notifications" className="notification-bell" aria-label={words} title={words} data-testid="notification-bell">
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
      </svg>
      {count > 0 && (
        <span className="nav-badge" data-testid="notification-count">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
