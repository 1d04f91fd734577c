import { useLive } from '../lib/live.ts';
import { trpc } from '../lib/trpc.ts';
import { BellLink } from './BellLink.tsx';

/**
 * The bell with the unread count, kept live by the feed (area `notifications`, told to this member
 * only). Loaded lazily for members once the page has loaded and is idle (Shell.tsx draws the bell
 * without its count until then), so the live feed's code and the count's call stay out of the first load.
 */
export default function NotificationBell() {
  useLive(['notifications']);
  const unread = trpc.notifications.unreadCount.useQuery();
  return <BellLink count={unread.data?.count ?? 0} />;
}
