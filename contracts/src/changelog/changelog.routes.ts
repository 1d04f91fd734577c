import { defineArea } from '../area.ts';

export const changelogRoutes = defineArea({
  pages: {
    '/personal/changelog': { access: 1, label: 'Changelog', group: 'cool' },
  },
});
