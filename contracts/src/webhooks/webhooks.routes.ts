import { defineArea } from '../area.ts';

/** Signed webhooks (Standard Webhooks) a member from Family up sends to a host the owner allows. */
export const webhooksRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'webhooks.list': 2,
    'webhooks.create': 2,
    'webhooks.update': 2,
    'webhooks.delete': 2,
    'webhooks.deliveries': 2,
    'webhooks.test': 2,
  },
});
