import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '@site/contracts';
import { heifDecoder, PIXEL_BUDGETS } from '../../src/areas/pictures/pictures.decode.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { cookieFor, databases, emptyMediaFolder, storedFiles, useTestServer } from '../helpers.ts';
import { heic } from './date-fixtures.ts';
import { tempMediaDir, uploadVia } from './pictures.fixtures.ts';

type Card = { id: number; thumb: string; display: boolean; previewTooLarge: boolean; previewNeeds: string | null; thumbWidth: number | null; thumbHeight: number | null };
type Page = { result: { data: { pictures: Card[] } } };

const installed = (program: string) => {
  try {
    execFileSync('which', [program], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
/** The test makes its HEIC with heif-enc and the server decodes it with heif-dec or heif-convert (Debian's libheif-examples has both; .ci/run installs it). */
const missing = [installed('heif-enc') ? null : 'heif-enc', heifDecoder.program ? null : 'heif-dec or heif-convert'].filter(Boolean);
const skipReason = `skipped: ${missing.join(' and ')} not installed (apt install libheif-examples)`;
if (missing.length > 0) console.warn(`pictures.heic.test.ts: the 24-megapixel tests are ${skipReason}`);

/** A 24-megapixel HEIC (5712 x 4284, an iPhone's 24 MP), made once by heif-enc from a flat blue JPEG (fast to encode; decoding costs the same per pixel). */
let big: Buffer | undefined;
async function bigHeic(): Promise<Buffer> {
  if (big) return big;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-heic24-'));
  try {
    await sharp({ create: { width: 5712, height: 4284, channels: 3, background: '#2a6fb0' } })
      .jpeg({ quality: 80 })
      .toFile(path.join(dir, 'in.jpg'));
    execFileSync('heif-enc', ['-q', '30', '-p', 'preset=ultrafast', 'in.jpg', '-o', 'out.heic'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    big = fs.readFileSync(path.join(dir, 'out.heic'));
    return big;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(databases)('pictures: big iPhone HEICs (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  const system = heifDecoder.program;
  beforeAll(async () => {
    if (missing.length === 0) await bigHeic();
  }, 180_000);
  beforeEach(() => emptyMediaFolder(s.deps, 'pictures'));
  afterEach(async () => {
    heifDecoder.program = system;
    await drainJobs(s.deps);
  });
  const get = (url: string, cookie: string) => s.app.inject({ method: 'GET', url, headers: { cookie } });
  const cardOf = async (cookie: string, id: number) => {
    const res = await get(`/trpc/pictures.page?input=${encodeURIComponent(JSON.stringify({ type: 500, index: 0 }))}`, cookie);
    return res.json<Page>().result.data.pictures.find((p) => p.id === id);
  };
  const uploadAndDerive = async (cookie: string, name: string, data: Buffer) => {
    const res = await uploadVia(s.app, cookie, { name, data, type: 'image/heic' }, { caption: name, date: '2024-05' });
    expect(res.statusCode).toBe(200);
    const answer = res.json<UploadAnswer>();
    expect(answer.fileType).toBe('heic');
    await drainJobs(s.deps, 120_000);
    return { answer, stem: answer.target.slice(0, 32), card: await cardOf(cookie, answer.id) };
  };

  it.skipIf(missing.length > 0)(
    "previews a 24-megapixel iPhone HEIC through the system's HEIF decoder: a thumbnail and a display size, not 'too large'",
    async () => {
      expect(PIXEL_BUDGETS['heic-system']).toBeGreaterThanOrEqual(8064 * 6048);
      const cookie = await cookieFor(s.deps, 2);
      const { stem, card } = await uploadAndDerive(cookie, 'IMG_2401.HEIC', await bigHeic());
      expect(card).toMatchObject({ thumb: 'ready', display: true, previewTooLarge: false, previewNeeds: null, thumbWidth: 400, thumbHeight: 300 });
      const thumb = await get(`/private/pictures/${stem}.thumb.webp`, cookie);
      expect(thumb.statusCode).toBe(200);
      expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });
      // The photo's own colour (#2a6fb0), not a placeholder.
      const { dominant } = await sharp(thumb.rawPayload).stats();
      expect(Math.abs(dominant.b - 0xb0)).toBeLessThan(24);
      const display = await get(`/private/pictures/${stem}.display.webp`, cookie);
      expect(await sharp(display.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 1600, height: 1200 });
      // Nothing of the conversion is left beside the picture's own files.
      expect(await storedFiles(s.deps, 'pictures')).toEqual([`${stem}.display.webp`, `${stem}.heic`, `${stem}.thumb.webp`]);
    },
    240_000,
  );

  it.skipIf(missing.length > 0)(
    "without the system's HEIF decoder, still refuses the 24-megapixel HEIC politely: kept, 'too large to preview', its original downloads",
    async () => {
      heifDecoder.program = null;
      const cookie = await cookieFor(s.deps, 2);
      const bytes = await bigHeic();
      const { answer, stem, card } = await uploadAndDerive(cookie, 'IMG_2402.HEIC', bytes);
      expect(card).toMatchObject({ thumb: 'none', display: false, previewTooLarge: true, previewNeeds: null });
      expect((await get(`/private/pictures/${stem}.thumb.webp`, cookie)).statusCode).toBe(404);
      const original = await get(`/private/pictures/${answer.target}`, cookie);
      expect(original.statusCode).toBe(200);
      expect(original.rawPayload.equals(bytes)).toBe(true);
    },
    240_000,
  );

  it("makes the same preview of a turned photo with the system's decoder and with heic-decode (the EXIF orientation is not applied twice)", async () => {
    const cookie = await cookieFor(s.deps, 2);
    // heif-enc keeps the JPEG's EXIF, Orientation 6 (turn 90° clockwise) included.
    const bytes = await heic({ width: 640, height: 480 });
    const turned = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a6fb0' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(turned).metadata()).orientation).toBe(6);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pictures-turned-'));
    let turnedHeic: Buffer;
    try {
      fs.writeFileSync(path.join(dir, 'in.jpg'), turned);
      execFileSync('heif-enc', ['-q', '50', 'in.jpg', '-o', 'out.heic'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      turnedHeic = fs.readFileSync(path.join(dir, 'out.heic'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const sizes: string[] = [];
    for (const decoder of system ? [system, null] : [null]) {
      heifDecoder.program = decoder;
      for (const [name, data] of [
        ['plain.heic', bytes],
        ['turned.heic', turnedHeic],
      ] as const) {
        const { card } = await uploadAndDerive(cookie, `${decoder ? 'system' : 'wasm'}-${name}`, Buffer.concat([data, freeBox(sizes.length)]));
        expect(card).toMatchObject({ thumb: 'ready', display: true, previewTooLarge: false });
        sizes.push(`${decoder ? 'system' : 'wasm'} ${name}: ${card?.thumbWidth}x${card?.thumbHeight}`);
      }
    }
    // heic-decode hands over libheif's pixels as they are (its own rotation applied, no EXIF): the
    // system's decoder must give the same.
    const turnedSize = sizes[1]?.split(': ')[1];
    const expected = (who: string) => [`${who} plain.heic: 400x300`, `${who} turned.heic: ${turnedSize}`];
    expect(sizes).toEqual(system ? [...expected('system'), ...expected('wasm')] : expected('wasm'));
  }, 120_000);
});

/** An ISO-BMFF 'free' box after the file's last box: other bytes (the gallery stores the same bytes once), the same picture. */
function freeBox(n: number): Buffer {
  const box = Buffer.alloc(16);
  box.writeUInt32BE(16, 0);
  box.write('free', 4, 'latin1');
  box.writeUInt32BE(n, 12);
  return box;
}
