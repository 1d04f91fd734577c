import type { PageRow } from '../area.ts';

/** The pages of notificationsRoutes (notifications.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const notificationsPages = {
  '/personal/notifications': { access: 1, label: 'Notifications' },
} as const satisfies Record<string, PageRow>;
