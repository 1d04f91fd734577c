import { expect } from 'vitest';
import type { ytdlRoutes } from '@site/contracts';
import { ytdlMessages } from '@site/contracts';
import { buildApp, createDeps } from '../../src/app.ts';
import { cookieFor, postJson, testConfig } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';
import { makeClip, serveMedia, tempFolder } from './ytdl.fixture.ts';

/** A link the default settings refuse before yt-dlp starts (loopback), so the matrix stays fast. */
const refusedLink = 'http://127.0.0.1:9/clip.mp4';
const noJob = '00000000-0000-4000-8000-000000000000';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const ytdlSamples = {
  'ytdl.version': undefined,
  'ytdl.status': undefined,
  'ytdl.info': { url: refusedLink },
  'ytdl.start': { url: refusedLink, format: 'mp4' },
  'ytdl.progress': { job: noJob },
  'ytdl.cancel': { job: noJob },
} satisfies AreaSamples<typeof ytdlRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const ytdlParity = {
  async '/api/ytdl/info'(s) {
    const cookie = await cookieFor(s.deps, 1);
    const refused = await postJson(s.app, '/api/ytdl/info', { url: refusedLink }, cookie);
    expect([refused.statusCode, refused.json()]).toEqual([400, { message: ytdlMessages.privateHost }]);
    // The same database, served by an app that may download from this machine.
    const dir = await tempFolder('ytdl-parity-');
    const media = await serveMedia(await makeClip(dir));
    const deps = createDeps(testConfig({ DOWNLOAD_ALLOW_PRIVATE_HOSTS: 'true', DATA_DIR: dir }), s.db);
    const app = await buildApp(deps);
    try {
      const res = await postJson(app, '/api/ytdl/info', { url: media.url('Parity%20clip.mp4') }, cookie);
      expect([res.statusCode, res.json()]).toEqual([200, { title: 'Parity clip' }]);
    } finally {
      await app.close();
      await media.close();
    }
  },
} satisfies AreaParity<typeof ytdlRoutes>;
