import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WEB_MANIFEST_BASE_FILE, withOwnerColors, type WebManifest } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { ownerColors } from './settings.service.ts';

/**
 * `GET /manifest.webmanifest`: the client build's manifest (name, icons, start page) in the owner's
 * colours. Revalidated on every use (`no-cache`), so a colour change reaches the next install.
 */
export function settingsHttp(routes: HttpRegistrar, deps: AppDeps): void {
  // The build's file does not change under a running server: read once (again after a failure).
  let base: Promise<WebManifest> | null = null;
  routes.route('GET /manifest.webmanifest', async (_req, reply) => {
    base ??= readBase(deps.config.clientDist).catch((error: unknown) => {
      base = null;
      throw error;
    });
    const manifest = withOwnerColors(await base, await ownerColors(deps));
    return reply.header('cache-control', 'no-cache').type('application/manifest+json; charset=utf-8').send(JSON.stringify(manifest));
  });
}

async function readBase(clientDist: string): Promise<WebManifest> {
  try {
    return JSON.parse(await readFile(path.join(clientDist, WEB_MANIFEST_BASE_FILE), 'utf8')) as WebManifest;
  } catch {
    throw new AppError('NOT_FOUND', 'The client is not built, so there is no web app manifest yet');
  }
}
