import type { ComponentType } from 'react';
import type { PagePath } from '@site/contracts/permissions';
import { sitePages, type SitePage } from './lib/links.ts';

export type PageModule = { default: ComponentType };

/** A page with its lazy import: no page's code is in the first load. */
export type SiteRoute = SitePage & { load: () => Promise<PageModule> };

/** Tools whose pages have not been written yet lead to an honest placeholder, not a fake page. */
function notBuilt(label: string): () => Promise<PageModule> {
  return () => import('./app/NotBuiltPage.tsx').then((m) => ({ default: m.notBuiltPage(label) }));
}

/**
 * Each page of the permission table (contracts, section pages: access, label, hub group) mapped to its
 * lazy import. Typed over the whole table, so a page added there fails the typecheck until it is here.
 */
const loaders: Record<PagePath, () => Promise<PageModule>> = {
  '/about': () => import('./features/about/AboutRoute.tsx'),
  '/login': () => import('./features/account/LoginPage.tsx'),
  '/logout': () => import('./features/account/LogoutPage.tsx'),
  '/preauth': () => import('./features/account/PreauthPage.tsx'),
  '/personal': () => import('./features/hub/HubPage.tsx'),
  '/personal/climbing-passes': notBuilt('Climb Passes'),
  '/house': notBuilt('House TODO'),
  '/personal/5etools': () => import('./features/fivetools/FivetoolsPage.tsx'),
  '/personal/pictures': notBuilt('Pictures'),
  '/personal/upload-pictures': notBuilt('Add Pictures'),
  '/personal/youtube': () => import('./features/ytdl/YtdlPage.tsx'),
  '/personal/todo': notBuilt('TODO'),
  '/personal/game-servers': notBuilt('Game Servers'),
  '/personal/windows-registry': notBuilt('Windows Keys'),
  '/personal/settings': () => import('./features/settings/SettingsPage.tsx'),
  '/personal/changelog': () => import('./features/changelog/ChangelogPage.tsx'),
  '/personal/recipes': notBuilt('Recipes'),
  '/personal/dungeon-crawler': () => import('./features/tower/TowerPage.tsx'),
  '/personal/trade-game': () => import('./features/trade-game/TradeGamePage.tsx'),
  '/admin': () => import('./features/admin/AdminUsersPage.tsx'),
  '/admin/finances': notBuilt('Finance'),
  '/admin/dev-dashboard': notBuilt('Dev Dash'),
  '/admin/old-home': () => import('./features/admin/OldHomePage.tsx'),
};

export const routes: SiteRoute[] = sitePages.map((page) => ({ ...page, load: loaders[page.href] }));
