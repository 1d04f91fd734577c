import { defineArea } from '../area.ts';

/** The backup panel of the Admin page reads the scheduler's state through one admin procedure. */
export const backupsRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'backups.status': 3,
  },
});
