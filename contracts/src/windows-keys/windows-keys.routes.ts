import { defineArea } from '../area.ts';

export const windowsKeysRoutes = defineArea({
  procedures: {
    'windowsKeys.list': 2,
    'windowsKeys.add': 2,
    'windowsKeys.update': 2,
  },
  pages: {
    '/personal/windows-registry': { access: 2, label: 'Windows Keys', group: 'cool' },
  },
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
