import { defineArea } from '../area.ts';

export const ytdlRoutes = defineArea({
  pages: {
    '/personal/youtube': { access: 1, label: 'YT-DL', navLabel: 'YT Download', group: 'cool' },
  },
});
