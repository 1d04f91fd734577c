import { defineArea } from '../area.ts';

export const windowsKeysRoutes = defineArea({
  pages: {
    '/personal/windows-registry': { access: 2, label: 'Windows Keys', group: 'cool' },
  },
});
