import type { webhooksRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const webhooksSamples = {
  'webhooks.list': undefined,
  // TEST-NET-2, in no WEBHOOK_ALLOWED_HOSTS: refused without any network, past the permission gate.
  'webhooks.create': { url: 'https://198.51.100.7/hook', events: ['house.added'] },
  'webhooks.update': { id: 1, events: ['house.added'] },
  'webhooks.delete': { id: 1 },
  'webhooks.deliveries': { id: 1 },
  'webhooks.test': { id: 1 },
} satisfies AreaSamples<typeof webhooksRoutes>;
