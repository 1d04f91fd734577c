import { defineArea } from '../area.ts';
import { ytdlPages } from './ytdl.pages.ts';

export const ytdlRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'ytdl.version': 1,
    /** The yt-dlp in use and the program path, for the owner's notice on the Admin page. */
    'ytdl.status': 3,
    'ytdl.info': 1,
    'ytdl.start': 1,
    'ytdl.progress': 1,
    'ytdl.cancel': 1,
  },
  pages: ytdlPages,
  http: {
    /** The finished file of a job, once, streamed from disk (then deleted). */
    'GET /api/ytdl/file/:job': { access: 1 },
    /** The documented download: answers the file itself, so it is a route of its own, not a JSON /api row. */
    'POST /api/ytdl/download': { access: 1 },
  },
  api: {
    '/api/ytdl/info': { procedure: 'ytdl.info', input: { url: 'url' }, output: { title: 'title' } },
  },
});
