import type { Level, Viewer } from './levels.ts';

/**
 * Who may do what, in one table. `public` means anyone, signed in or not; a number is the minimum
 * level of a signed-in account (0 = any signed-in account, even one still pending).
 * The server builds every procedure from this table (a procedure missing here cannot be built),
 * and the client reads the same table for its navigation.
 */
export type Access = 'public' | Level;

export const procedures = {
  'auth.status': 'public',
  'auth.signup': 'public',
  'auth.login': 'public',
  'auth.logout': 'public',

  'settings.colors': 'public',
  'settings.saveColors': 1,
  'settings.navbarStyle': 'public',
  'settings.saveNavbarStyle': 1,
  'settings.splash': 1,
  'settings.dismissSplash': 1,

  'admin.users': 3,
  'admin.setLevel': 3,
} as const satisfies Record<string, Access>;

export type ProcedurePath = keyof typeof procedures;

/** Page paths and who may open them. `alsoOnPort`: shown to anyone signed in when served on that port. */
export type PageAccess = { access: Access; alsoOnPort?: number };

export const pages = {
  '/about': { access: 'public' },
  '/login': { access: 'public' },
  '/logout': { access: 'public' },
  '/preauth': { access: 0 },
  '/house': { access: 'public' },
  '/personal': { access: 1 },
  '/personal/climbing-passes': { access: 2 },
  '/personal/5etools': { access: 1 },
  '/personal/pictures': { access: 1 },
  '/personal/upload-pictures': { access: 2 },
  '/personal/recipes': { access: 3, alsoOnPort: 8443 },
  '/personal/youtube': { access: 1 },
  '/personal/settings': { access: 1 },
  '/personal/trade-game': { access: 3, alsoOnPort: 8443 },
  '/personal/changelog': { access: 1 },
  '/personal/dungeon-crawler': { access: 3, alsoOnPort: 8443 },
  '/personal/windows-registry': { access: 2 },
  '/personal/todo': { access: 1 },
  '/personal/game-servers': { access: 1 },
  '/admin': { access: 3 },
  '/admin/finances': { access: 3 },
  '/admin/dev-dashboard': { access: 3 },
  '/admin/old-home': { access: 3 },
} as const satisfies Record<string, PageAccess>;

export type PagePath = keyof typeof pages;

/** True when the viewer meets the access rule. Pending accounts (level 0) pass only rules of 0. */
export function allows(access: Access, viewer: Viewer): boolean {
  if (access === 'public') return true;
  return viewer !== null && viewer.level >= access;
}

export function allowsPage(page: PageAccess, viewer: Viewer, port?: number): boolean {
  if (allows(page.access, viewer)) return true;
  return page.alsoOnPort !== undefined && port === page.alsoOnPort && viewer !== null && viewer.level >= 1;
}
