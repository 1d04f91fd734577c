import type { ComponentType } from 'react';
import type { PagePath } from '@site/contracts/pages';
import { sitePages, type SitePage } from './lib/links.ts';

export type PageModule = { default: ComponentType };

/** A page with its lazy import: no page's code is in the first load. */
export type SiteRoute = SitePage & { load: () => Promise<PageModule> };

/**
 * Each page of the permission table (contracts, section pages: access, label, hub group) mapped to its
 * lazy import. Typed over the whole table, so a page added there fails the typecheck until it is here.
 */
const loaders: Record<PagePath, () => Promise<PageModule>> = {
  '/about': () => import('./features/about/AboutRoute.tsx'),
  '/login': () => import('./features/account/LoginPage.tsx'),
  '/logout': () => import('./features/account/LogoutPage.tsx'),
  '/preauth': () => import('./features/account/PreauthPage.tsx'),
  '/personal/account': () => import('./features/account/AccountPage.tsx'),
  '/reset-password': () => import('./features/account/ResetPasswordPage.tsx'),
  '/personal': () => import('./features/hub/HubPage.tsx'),
  '/personal/5etools': () => import('./features/fivetools/FivetoolsPage.tsx'),
  '/personal/climbing-passes': () => import('./features/climbing/ClimbingPassesPage.tsx'),
  '/house': () => import('./features/house/HousePage.tsx'),
  '/house/plan': () => import('./features/plan/PlanPage.tsx'),
  '/house/chores': () => import('./features/plan/ChoresPage.tsx'),
  '/personal/pictures': () => import('./features/pictures/PicturesPage.tsx'),
  '/personal/upload-pictures': () => import('./features/pictures/UploadPage.tsx'),
  '/personal/pictures/albums': () => import('./features/pictures/AlbumsPage.tsx'),
  '/personal/pictures/people': () => import('./features/pictures/PeoplePage.tsx'),
  '/personal/pictures/map': () => import('./features/pictures/MapPage.tsx'),
  '/shared': () => import('./features/pictures/SharedPage.tsx'),
  '/upload': () => import('./features/pictures/GuestUploadPage.tsx'),
  '/personal/todo': () => import('./features/todo/TodoPage.tsx'),
  '/personal/game-servers': () => import('./features/game-servers/GameServersPage.tsx'),
  '/personal/windows-registry': () => import('./features/windows-keys/WindowsRegistryPage.tsx'),
  '/personal/youtube': () => import('./features/ytdl/YtdlPage.tsx'),
  '/personal/settings': () => import('./features/settings/SettingsPage.tsx'),
  '/personal/api': () => import('./features/developers/ApiPage.tsx'),
  '/personal/notifications': () => import('./features/notifications/NotificationsPage.tsx'),
  '/personal/changelog': () => import('./features/changelog/ChangelogPage.tsx'),
  '/personal/dungeon-crawler': () => import('./features/tower/TowerPage.tsx'),
  '/personal/dungeon-crawler/replay': () => import('./features/tower/ReplayPage.tsx'),
  '/personal/trade-game': () => import('./features/trade-game/TradeGamePage.tsx'),
  '/personal/recipes': () => import('./features/recipes/RecipesRoute.tsx'),
  '/admin': () => import('./features/admin/AdminUsersPage.tsx'),
  '/admin/finances': () => import('./features/finance/FinancesPage.tsx'),
  '/admin/dev-dashboard': () => import('./features/dev-dashboard/DevDashboardPage.tsx'),
  '/admin/old-home': () => import('./features/admin/OldHomePage.tsx'),
  '/admin/pictures': () => import('./features/pictures/ApprovalPage.tsx'),
};

export const routes: SiteRoute[] = sitePages.map((page) => ({ ...page, load: loaders[page.href] }));
