import type { PageRow } from '../area.ts';

/** The pages of gameServersRoutes (game-servers.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const gameServersPages = {
  '/personal/game-servers': { access: 1, label: 'Game Servers', group: 'cool' },
} as const satisfies Record<string, PageRow>;
