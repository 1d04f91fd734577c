import type { PageRow } from '../area.ts';

/** The pages of albumsRoutes (albums.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const albumsPages = {
  // Reached from the gallery's "Albums" link; the album pages are its sub-paths.
  '/personal/pictures/albums': { access: 1, label: 'Albums', pattern: '/personal/pictures/albums/*' },
} as const satisfies Record<string, PageRow>;

/** The pages of sharesRoutes (albums.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const sharesPages = {
  '/shared': { access: 'public', label: 'Shared album', pattern: '/shared/*' },
  '/upload': { access: 'public', label: 'Send pictures', pattern: '/upload/*' },
} as const satisfies Record<string, PageRow>;
