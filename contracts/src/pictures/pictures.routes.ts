import { defineArea } from '../area.ts';

export const picturesRoutes = defineArea({
  pages: {
    '/personal/pictures': { access: 1, label: 'Pictures', group: 'cool', pattern: '/personal/pictures/*' },
    '/personal/upload-pictures': { access: 2, label: 'Add Pictures', group: 'cool' },
  },
});
