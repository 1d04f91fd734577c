import type { PageRow } from '../area.ts';

/** The pages of todoRoutes (todo.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const todoPages = {
  '/personal/todo': { access: 1, label: 'TODO', group: 'cool' },
} as const satisfies Record<string, PageRow>;
