import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ytdlMessages } from '@site/contracts';
import { YtdlService } from '../../src/areas/ytdl/ytdl.service.ts';
import { REFERENCE_HOST } from '../../src/net/address-guard.ts';
import { testConfig } from '../helpers.ts';
import { tempFolder } from './ytdl.fixture.ts';

/** What is left under a folder (the service leaves nothing behind). */
const entries = (dir: string) => fs.readdir(dir);

describe('YT-DL on a server with no internet', () => {
  it('says once that the site cannot reach the internet when no name resolves, and "check the link" only for a host that does not exist', async () => {
    const root = await tempFolder('ytdl-offline-');
    const notFound = () => Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    const offline = new YtdlService(testConfig().download, root, { lookup: () => Promise.reject(notFound()) });
    const noDns = new YtdlService(testConfig().download, root, { lookup: () => Promise.reject(Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' })) });
    const online = new YtdlService(testConfig().download, root, { lookup: (host) => (host === REFERENCE_HOST ? Promise.resolve(['93.184.215.14']) : Promise.reject(notFound())) });
    const message = (promise: Promise<unknown>) => promise.then(
      () => 'accepted',
      (e: unknown) => (e as Error).message,
    );
    try {
      for (const service of [offline, noDns]) {
        expect(await message(service.info(1, 'https://www.youtube.com/watch?v=abc'))).toBe(ytdlMessages.noInternet);
        expect(await message(service.start(1, { url: 'https://www.youtube.com/watch?v=abc', format: 'mp4' }))).toBe(ytdlMessages.noInternet);
      }
      expect(ytdlMessages.noInternet).not.toMatch(/check the link/);
      expect(await message(online.start(1, { url: 'https://no-such-host.invalid/clip.mp4', format: 'mp4' }))).toBe(ytdlMessages.unknownHost);
      expect(await entries(root)).toEqual([]);
    } finally {
      await Promise.all([offline.stop(), noDns.stop(), online.stop()]);
      await fs.rm(root, { recursive: true, force: true });
    }
  });

});
