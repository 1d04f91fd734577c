import type { PageRow } from '../area.ts';

/** The pages of windowsKeysRoutes (windows-keys.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const windowsKeysPages = {
  '/personal/windows-registry': { access: 2, label: 'Windows Keys', group: 'cool' },
} as const satisfies Record<string, PageRow>;
