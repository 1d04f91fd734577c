import { defineArea } from '../area.ts';
import { adminPages } from './admin.pages.ts';

export const adminRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'admin.users': 3,
    // Both lead to a password (a reset link; a level that lets an account of one's own make links):
    // an admin's signed-in browser only, never a personal API token.
    'admin.setLevel': { access: 3, browser: true },
    'admin.resetLink': { access: 3, browser: true },
    'admin.waitingCount': 3,
  },
  pages: adminPages,
  api: {
    '/api/admin/users': { procedure: 'admin.users', output: { name: 'name', authentication: 'level' } },
    '/api/admin/set_user_auth': {
      procedure: 'admin.setLevel',
      input: { name: 'username', level: { field: 'authlevel', as: 'int' } },
      output: { name: 'name', authentication: 'level' },
    },
  },
});
