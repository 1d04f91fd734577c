/**
 * `npm run icons`: the app icons of the web manifest and iOS, drawn from public/favicon.svg with sharp
 * into public/icons (committed; run again after changing the favicon).
 * - icon-192.png, icon-512.png: the favicon as it is (purpose "any");
 * - maskable-512.png, apple-touch-icon.png: full-bleed squares in the favicon's own background, the
 *   mark inside the centre 80 % that a launcher's mask always keeps.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

const root = import.meta.dirname;
const out = path.join(root, 'public', 'icons');

export async function writeIcons(): Promise<string[]> {
  const svg = await readFile(path.join(root, 'public', 'favicon.svg'));
  const background = /<rect[^>]*fill="(#[0-9a-fA-F]{3,8})"/.exec(svg.toString())?.[1] ?? '#000000';
  await mkdir(out, { recursive: true });
  const plain = (size: number) => sharp(svg, { density: (72 * size) / 64 }).resize(size, size).png({ compressionLevel: 9 });
  const fullBleed = async (size: number) => {
    const inner = Math.round(size * 0.8);
    const mark = await plain(inner).toBuffer();
    const offset = Math.round((size - inner) / 2);
    return sharp({ create: { width: size, height: size, channels: 4, background } })
      .composite([{ input: mark, left: offset, top: offset }])
      .png({ compressionLevel: 9 });
  };
  const files: [string, Sharp | Promise<Sharp>][] = [
    ['icon-192.png', plain(192)],
    ['icon-512.png', plain(512)],
    ['maskable-512.png', fullBleed(512)],
    ['apple-touch-icon.png', fullBleed(180)],
  ];
  for (const [name, image] of files) await (await image).toFile(path.join(out, name));
  return files.map(([name]) => path.join(out, name));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const file of await writeIcons()) console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
