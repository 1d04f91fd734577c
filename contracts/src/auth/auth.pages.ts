import type { PageRow } from '../area.ts';

/** The pages of authRoutes (auth.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const authPages = {
  '/login': { access: 'public', label: 'Login' },
  '/logout': { access: 'public', label: 'Logout' },
  '/preauth': { access: 0, label: 'Pending account', ungated: true },
  '/personal/account': { access: 0, label: 'Account' },
  '/reset-password': { access: 'public', label: 'Reset password' },
} as const satisfies Record<string, PageRow>;
