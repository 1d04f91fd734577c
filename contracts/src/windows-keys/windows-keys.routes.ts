import { defineArea } from '../area.ts';
import { windowsKeysPages } from './windows-keys.pages.ts';

export const windowsKeysRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'windowsKeys.list': 2,
    'windowsKeys.add': 2,
    'windowsKeys.update': 2,
  },
  pages: windowsKeysPages,
  api: {
    '/api/windows_keys/get': { procedure: 'windowsKeys.list', output: { key: 'key', location: 'location', status: 'status' } },
    '/api/windows_keys/update': {
      procedure: 'windowsKeys.update',
      input: { key: 'key', location: 'location', status: 'status' },
      output: { key: 'key', location: 'location', status: 'status' },
    },
    '/api/windows_keys/add': {
      procedure: 'windowsKeys.add',
      input: { key: 'key', status: 'status', location: 'location' },
      output: { key: 'key', location: 'location', status: 'status' },
    },
  },
});
