import { expect } from 'vitest';
import { devMessages, type devDashboardRoutes } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';
import type { TestServer } from '../helpers.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const devDashboardSamples = {
  'devDashboard.status': undefined,
  'devDashboard.runs': undefined,
  'devDashboard.run': { id: 1 },
  'devDashboard.devPull': {},
  'devDashboard.prodPull': { confirm: 'pull to prod' },
  'devDashboard.devLaunch': {},
  'devDashboard.reboot': { confirm: 'reboot prod' },
} satisfies AreaSamples<typeof devDashboardRoutes>;

/**
 * The shared test server has no DEV_COMMANDS_FILE: each path answers that its action is not
 * configured and how to configure it (runs themselves: test/dev-dashboard/dev-dashboard.test.ts).
 */
const notConfigured = (path: string, action: string, payload?: object) => async (s: TestServer) => {
  const cookie = await cookieFor(s.deps, 3, 'boss');
  const res = await postJson(s.app, path, payload, cookie);
  expect([res.statusCode, res.json()]).toEqual([400, { message: devMessages.notConfigured(action) }]);
};

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const devDashboardParity = {
  '/api/dev/dev-pull': notConfigured('/api/dev/dev-pull', 'dev-pull'),
  '/api/dev/prod-pull': notConfigured('/api/dev/prod-pull', 'prod-pull', { confirm: 'pull to prod' }),
  '/api/dev/dev-launch': notConfigured('/api/dev/dev-launch', 'dev-launch'),
  '/api/dev/reboot': notConfigured('/api/dev/reboot', 'reboot', { confirm: 'reboot prod' }),
} satisfies AreaParity<typeof devDashboardRoutes>;
