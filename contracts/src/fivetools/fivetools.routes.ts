import { defineArea } from '../area.ts';
import { fivetoolsPages } from './fivetools.pages.ts';

export const fivetoolsRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'fivetools.status': 1,
  },
  pages: fivetoolsPages,
  http: {
    // The mirror's files; its frame's own requests carry the session cookie.
    'GET /api/5etools/*': { access: 1 },
  },
});
