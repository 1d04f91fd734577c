import { defineArea } from '../area.ts';

export const liveRoutes = /* @__PURE__ */ defineArea({
  http: {
    // Open to everyone: the house list is live without signing in. Each event goes only to the
    // viewers the procedure of its area (LIVE_AREAS) lets read it.
    'GET /events': { access: 'public', stream: true },
  },
});
