import { defineArea } from '../area.ts';

export const fivetoolsRoutes = defineArea({
  procedures: {
    'fivetools.status': 1,
  },
  pages: {
    '/personal/5etools': { access: 1, label: '5eTools', group: 'cool' },
  },
  http: {
    // The mirror's files; its frame's own requests carry the session cookie.
    'GET /api/5etools/*': { access: 1 },
  },
});
