import type { ComponentType } from 'react';
import type { Level, Viewer } from '@site/contracts';
import type { PagePath } from '@site/contracts/permissions';
import { canOpen } from './lib/access.ts';

export type PageModule = { default: ComponentType };

/**
 * One row per page. `page` names the access rule in contracts/permissions (the same table the
 * server enforces); `load` is the lazy import of the page, so no page's code is in the first load.
 */
export type SiteRoute = {
  /** Where links point. */
  href: string;
  /** The router pattern when it differs from href (pages with sub-paths). */
  pattern?: string;
  page: PagePath;
  label: string;
  /** The navbar's wording when it differs from the hub's. */
  navLabel?: string;
  /** Hub section and navbar dropdown the link belongs to. */
  group?: 'cool' | 'admin';
  /** Hub and navbar show the link from this level even where the page itself is more open. */
  listedFrom?: Level;
  /** Shown to everyone: the pending page is where a refused login lands, signed in or not. */
  ungated?: boolean;
  load: () => Promise<PageModule>;
};

/** Tools whose pages have not been written yet lead to an honest placeholder, not a fake page. */
function notBuilt(label: string): () => Promise<PageModule> {
  return () => import('./app/NotBuiltPage.tsx').then((m) => ({ default: m.notBuiltPage(label) }));
}

export const routes: SiteRoute[] = [
  { href: '/about', page: '/about', label: 'About', load: () => import('./features/about/AboutRoute.tsx') },
  { href: '/login', page: '/login', label: 'Login', load: () => import('./features/account/LoginPage.tsx') },
  { href: '/logout', page: '/logout', label: 'Logout', load: () => import('./features/account/LogoutPage.tsx') },
  { href: '/preauth', page: '/preauth', label: 'Pending account', ungated: true, load: () => import('./features/account/PreauthPage.tsx') },
  { href: '/personal', page: '/personal', label: 'Personal', load: () => import('./features/hub/HubPage.tsx') },

  { href: '/personal/climbing-passes', page: '/personal/climbing-passes', label: 'Climb Passes', group: 'cool', load: notBuilt('Climb Passes') },
  { href: '/house', page: '/house', label: 'House TODO', group: 'cool', listedFrom: 2, load: notBuilt('House TODO') },
  { href: '/personal/5etools', page: '/personal/5etools', label: '5eTools', group: 'cool', load: notBuilt('5eTools') },
  { href: '/personal/pictures', pattern: '/personal/pictures/*', page: '/personal/pictures', label: 'Pictures', group: 'cool', load: notBuilt('Pictures') },
  { href: '/personal/upload-pictures', page: '/personal/upload-pictures', label: 'Add Pictures', group: 'cool', load: notBuilt('Add Pictures') },
  { href: '/personal/youtube', page: '/personal/youtube', label: 'YT-DL', navLabel: 'YT Download', group: 'cool', load: notBuilt('YT Download') },
  { href: '/personal/todo', page: '/personal/todo', label: 'TODO', group: 'cool', load: notBuilt('TODO') },
  { href: '/personal/game-servers', page: '/personal/game-servers', label: 'Game Servers', group: 'cool', load: notBuilt('Game Servers') },
  { href: '/personal/windows-registry', page: '/personal/windows-registry', label: 'Windows Keys', group: 'cool', load: notBuilt('Windows Keys') },
  { href: '/personal/settings', page: '/personal/settings', label: 'Settings', group: 'cool', load: () => import('./features/settings/SettingsPage.tsx') },
  { href: '/personal/changelog', page: '/personal/changelog', label: 'Changelog', group: 'cool', load: () => import('./features/changelog/ChangelogPage.tsx') },
  { href: '/personal/recipes', pattern: '/personal/recipes/*', page: '/personal/recipes', label: 'Recipes', group: 'cool', load: notBuilt('Recipes') },
  { href: '/personal/trade-game', page: '/personal/trade-game', label: 'Trade Game', group: 'cool', load: notBuilt('Trade Game') },
  {
    href: '/personal/dungeon-crawler',
    page: '/personal/dungeon-crawler',
    label: 'Microsoft Tower',
    group: 'cool',
    load: () => import('./features/dungeon-crawler/DungeonCrawlerPage.tsx'),
  },

  { href: '/admin', page: '/admin', label: 'Admin Dash', group: 'admin', load: () => import('./features/admin/AdminUsersPage.tsx') },
  { href: '/admin/finances', page: '/admin/finances', label: 'Finance', group: 'admin', load: notBuilt('Finance') },
  { href: '/admin/dev-dashboard', page: '/admin/dev-dashboard', label: 'Dev Dash', group: 'admin', load: notBuilt('Dev Dash') },
  { href: '/admin/old-home', page: '/admin/old-home', label: 'Old Home', group: 'admin', load: () => import('./features/admin/OldHomePage.tsx') },
];

/** The links of a hub section / navbar dropdown this viewer may see, in table order. */
export function linksFor(group: 'cool' | 'admin', viewer: Viewer, port?: number): SiteRoute[] {
  return routes.filter((route) => {
    if (route.group !== group) return false;
    if (route.listedFrom !== undefined) return viewer !== null && viewer.level >= route.listedFrom;
    return canOpen(route.page, viewer, port);
  });
}
