import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { jpegWithExif, png } from '../pictures/pictures.fixtures.ts';

/**
 * A site's media as they are on its disk: a picture and its thumbnail, a video big enough for several
 * parts of a bucket's upload, a document and a recipe's picture.
 */
export async function siteMediaFiles(): Promise<Record<string, Buffer>> {
  return {
    'pictures/0123456789abcdef0123456789abcdef.jpg': await jpegWithExif(),
    'pictures/0123456789abcdef0123456789abcdef.thumb.webp': await png({ width: 40, height: 30 }),
    'pictures/fedcba9876543210fedcba9876543210.mp4': Buffer.alloc(12 * 1024 * 1024 + 17, 7),
    'finance/2024/receipt.pdf': Buffer.from('%PDF-1.4 a receipt'),
    'recipes/cake.webp': await png({ width: 20, height: 20 }, '#336699'),
  };
}

/** Makes folders for the enclosing describe (`dir('name')`), removed after it. */
export function useTempDirs(): (name: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const made of dirs.splice(0)) fs.rmSync(made, { recursive: true, force: true });
  });
  return (name) => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    dirs.push(made);
    return made;
  };
}
