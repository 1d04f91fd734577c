import type { PageRow } from '../area.ts';

/** The pages of houseRoutes (house.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const housePages = {
  '/house': { access: 'public', label: 'House TODO', group: 'cool', listedFrom: 2 },
} as const satisfies Record<string, PageRow>;
