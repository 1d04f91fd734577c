import type { PageRow } from '../area.ts';

/** The pages of peopleRoutes (people.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const peoplePages = {
  '/personal/pictures/people': { access: 1, label: 'People', pattern: '/personal/pictures/people/*' },
} as const satisfies Record<string, PageRow>;
