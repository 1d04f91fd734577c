import type { PageRow } from '../area.ts';

/** The pages of ytdlRoutes (ytdl.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const ytdlPages = {
  '/personal/youtube': { access: 1, label: 'YT-DL', navLabel: 'YT Download', group: 'cool' },
} as const satisfies Record<string, PageRow>;
