import { defineArea } from '../area.ts';

export const adminRoutes = defineArea({
  procedures: {
    'admin.users': 3,
    'admin.setLevel': 3,
    'admin.resetLink': 3,
    'admin.waitingCount': 3,
  },
  pages: {
    '/admin': { access: 3, label: 'Admin Dash', group: 'admin' },
  },
  api: {
    '/api/admin/users': { procedure: 'admin.users', output: { name: 'name', authentication: 'level' } },
    '/api/admin/set_user_auth': {
      procedure: 'admin.setLevel',
      input: { name: 'username', level: { field: 'authlevel', as: 'int' } },
      output: { name: 'name', authentication: 'level' },
    },
  },
});
