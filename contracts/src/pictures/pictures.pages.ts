import type { PageRow } from '../area.ts';

/** The pages of picturesRoutes (pictures.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const picturesPages = {
  '/personal/pictures': { access: 1, label: 'Pictures', group: 'cool', pattern: '/personal/pictures/*' },
  // Friends (level 1) may upload too, for approval: they reach the form from the gallery's link;
  // the hub and navbar list it from level 2 as the spec says.
  '/personal/upload-pictures': { access: 1, listedFrom: 2, label: 'Add Pictures', group: 'cool' },
  // The approval queue: linked, with its count, from the hub's Admin section (not a navbar tab).
  '/admin/pictures': { access: 3, label: 'Approve Pictures' },
  // Reached from the gallery's "Map" link.
  '/personal/pictures/map': { access: 1, label: 'Pictures map' },
} as const satisfies Record<string, PageRow>;
