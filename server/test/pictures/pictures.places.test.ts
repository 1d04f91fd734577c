import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '@site/contracts';
import { originalKey } from '../../src/areas/pictures/pictures.files.ts';
import { locationPatches, patchStream } from '../../src/areas/pictures/pictures.location.ts';
import { runFfmpeg } from '../../src/areas/pictures/pictures.media.ts';
import { picturesMigrations } from '../../src/areas/pictures/pictures.migrations.ts';
import { savePlace } from '../../src/areas/pictures/pictures.repository.ts';
import { nearestTown, parseIso6709, readPosition, readVideoPosition } from '../../src/areas/pictures/pictures.places.ts';
import { backfillPlaces } from '../../src/areas/pictures/pictures.startup.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { cookieFor, createUser, databases, useTestServer } from '../helpers.ts';
import { pictureRow, png, tempMediaDir, uploadVia } from './pictures.fixtures.ts';

const require = createRequire(import.meta.url);
/** Real photographs with their GPS position: an iPhone 6 Plus's in Beijing, a Nokia Lumia 820's on a beach of Sylt. */
const BEIJING = require.resolve('jpeg-exif/test/IMG_0001.JPG');
const SYLT = require.resolve('exif-parser/test/starfish.jpg');

describe('places: the town of a position, offline', () => {
  it('names the nearest town, or a larger one hardly farther, with its country', () => {
    // Truro's cathedral; Penzance harbour; the Eiffel Tower; Sydney Opera House.
    expect(nearestTown({ lat: 50.2642, lon: -5.0511 })).toEqual({ town: 'Truro', country: 'United Kingdom' });
    expect(nearestTown({ lat: 50.1186, lon: -5.5343 })).toEqual({ town: 'Penzance', country: 'United Kingdom' });
    expect(nearestTown({ lat: 48.8584, lon: 2.2945 })).toEqual({ town: 'Paris', country: 'France' });
    expect(nearestTown({ lat: -33.8568, lon: 151.2153 })).toEqual({ town: 'Sydney', country: 'Australia' });
    // Mid-Atlantic: no town within 100 km.
    expect(nearestTown({ lat: 40, lon: -30 })).toBeNull();
  });

  it('reads the position of a real photograph, and none from a file without one', async () => {
    const beijing = await readPosition(BEIJING, 'jpg');
    expect(beijing?.lat).toBeCloseTo(40.00409, 4);
    expect(beijing?.lon).toBeCloseTo(116.48478, 4);
    expect(await readPosition(SYLT, 'jpg')).toEqual({ lat: expect.closeTo(55.03876, 4), lon: expect.closeTo(8.45719, 4) });
    const file = `${tempMediaDir()}/plain.png`;
    fs.writeFileSync(file, await png());
    expect(await readPosition(file, 'png')).toBeNull();
  });
});

/** A second of video made by ffmpeg with `metadata` (ffmpeg's own -metadata arguments) in its container. */
async function videoWith(name: string, metadata: string[]): Promise<string> {
  const file = path.join(tempMediaDir(), name);
  await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=64x48:d=1', '-pix_fmt', 'yuv420p', ...metadata, file]);
  return file;
}
/** ffmpeg writes `-metadata location=` as QuickTime's ©xyz box, as MP4's 3GPP loci box, as Matroska's LOCATION tag; Apple's key needs use_metadata_tags (an mdta key). */
const LONDON_MP4 = ['-metadata', 'location=+51.5072-000.1276/'];
const PARIS_MOV = ['-movflags', 'use_metadata_tags', '-metadata', 'com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/'];

describe('places of videos: ISO 6709', () => {
  it('reads degrees, with or without altitude and CRS, degrees and minutes, and degrees, minutes and seconds', () => {
    expect(parseIso6709('+48.8584+002.2945+035.000/')).toEqual({ lat: 48.8584, lon: 2.2945 });
    expect(parseIso6709('+51.5072-000.1276/')).toEqual({ lat: 51.5072, lon: -0.1276 });
    expect(parseIso6709('-33.8568+151.2153/')).toEqual({ lat: -33.8568, lon: 151.2153 });
    expect(parseIso6709('-33.8568+151.2153')).toEqual({ lat: -33.8568, lon: 151.2153 });
    expect(parseIso6709(' +40.7128-074.0060-010.5CRSWGS_84/ ')).toEqual({ lat: 40.7128, lon: -74.006 });
    expect(parseIso6709('+90-180/')).toEqual({ lat: 90, lon: -180 });
    // Degrees and minutes: 48° 51.504' N, 2° 17.67' E; degrees, minutes and seconds: 48° 51' 30.24" N, 2° 17' 40.2" E.
    expect(parseIso6709('+4851.504+00217.67/')).toEqual({ lat: expect.closeTo(48.8584, 6), lon: expect.closeTo(2.2945, 6) });
    expect(parseIso6709('+485130.24+0021740.2/')).toEqual({ lat: expect.closeTo(48.8584, 6), lon: expect.closeTo(2.2945, 6) });
  });

  it('gives no position for a malformed string, one out of range, or (0, 0)', () => {
    for (const bad of [
      '',
      '/',
      'London',
      '51.5072 -0.1276',
      '+51.5072/',
      '51.5072-000.1276/',
      '+51.5072-0.1276/',
      '+5.5072-000.1276/',
      '+51.5072-000.1276/x',
      '+51.5072--000.1276/',
      '+51.5072-000.1276+/',
      '++51.5072-000.1276/',
      '+51.-000.1276/',
      '+91.0000+000.0000/',
      '-90.0001+000.0000/',
      '+00.0000+180.0001/',
      '+10.0000-181.0000/',
      '+4860.000+00217.67/',
      '+485160.00+0021740.2/',
      '+485130.24+0026040.2/',
      '+00.0000+000.0000/',
      '+00.0000+000.0000+100.000/',
      '+1e1+000.0000/',
      '+51.5072-000.1276/\n+48.8584+002.2945/',
    ]) {
      expect(parseIso6709(bad), bad).toBeNull();
    }
  });

  it('reads the position of a real MP4 and MOV (ffmpeg writes them) by ffprobe, and none from a video without one', async () => {
    expect(await readPosition(await videoWith('london.mp4', LONDON_MP4), 'mp4')).toEqual({ lat: 51.5072, lon: -0.1276 });
    expect(await readPosition(await videoWith('paris.mov', PARIS_MOV), 'mov')).toEqual({ lat: 48.8584, lon: 2.2945 });
    expect(await readPosition(await videoWith('sydney.mkv', ['-metadata', 'location=-33.8568+151.2153/']), 'mkv')).toEqual({ lat: -33.8568, lon: 151.2153 });
    expect(await readPosition(await videoWith('plain.mp4', []), 'mp4')).toBeNull();
    expect(await readPosition(await videoWith('nowhere.mp4', ['-metadata', 'location=somewhere nice']), 'mp4')).toBeNull();
    // Not a video at all.
    const text = path.join(tempMediaDir(), 'not.mp4');
    fs.writeFileSync(text, 'hello');
    expect(await readVideoPosition(text)).toBeNull();
  });

  it("a guest's copy of a video (pictures.location.ts) holds no position ffprobe reads: QuickTime, MP4's 3GPP loci box, Matroska", async () => {
    for (const [name, metadata] of [
      ['london.mov', LONDON_MP4],
      ['paris.mov', PARIS_MOV],
      ['london.mp4', LONDON_MP4],
      ['sydney.mkv', ['-metadata', 'location=-33.8568+151.2153/']],
      ['sydney.webm', ['-metadata', 'location=-33.8568+151.2153/']],
    ] as const) {
      const file = await videoWith(name, [...metadata]);
      const copy = `${file}.guest`;
      const patches = await locationPatches(file, path.extname(name).slice(1));
      expect(patches.length).toBeGreaterThan(0);
      const chunks: Buffer[] = [];
      for await (const chunk of patchStream(Readable.from([fs.readFileSync(file)]), patches)) chunks.push(chunk as Buffer);
      fs.writeFileSync(copy, Buffer.concat(chunks));
      expect(fs.statSync(copy).size).toBe(fs.statSync(file).size);
      expect(await readVideoPosition(file), name).not.toBeNull();
      expect(await readVideoPosition(copy), name).toBeNull();
    }
  });
});

describe.each(databases)('places of pictures (%s)', (kind) => {
  const mediaDir = tempMediaDir();
  const s = useTestServer(kind, { MEDIA_DIR: mediaDir });
  afterEach(() => drainJobs(s.deps));
  const placeRow = (id: number) => s.db.selectFrom('picture_places').select(['lat', 'lon', 'town', 'country']).where('picture_id', '=', id).executeTakeFirst();

  it('an uploaded photograph lands at its town; a picture without a position gets an empty row', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const ids: number[] = [];
    for (const [name, data] of [
      ['iphone.jpg', fs.readFileSync(BEIJING)],
      ['lumia.jpg', fs.readFileSync(SYLT)],
      ['plain.png', await png()],
    ] as const) {
      const res = await uploadVia(s.app, cookie, { name, data }, { caption: name });
      expect(res.statusCode).toBe(200);
      ids.push(res.json<UploadAnswer & { id: number }>().id);
    }
    await drainJobs(s.deps);
    const [beijing, sylt, plain] = await Promise.all(ids.map(placeRow));
    expect(beijing).toMatchObject({ town: 'Beijing', country: 'China', lat: expect.closeTo(40.00409, 4), lon: expect.closeTo(116.48478, 4) });
    expect(sylt).toMatchObject({ town: 'List', country: 'Germany' });
    expect(plain).toEqual({ lat: null, lon: null, town: null, country: null });
  });

  it('an uploaded video (MP4) lands at the town of its location tag', async () => {
    const cookie = await cookieFor(s.deps, 3);
    const res = await uploadVia(s.app, cookie, { name: 'london.mp4', data: fs.readFileSync(await videoWith('london.mp4', LONDON_MP4)) }, { caption: 'Bus ride' });
    expect(res.statusCode).toBe(200);
    const id = res.json<UploadAnswer & { id: number }>().id;
    await drainJobs(s.deps);
    expect(await placeRow(id)).toEqual({ town: 'London', country: 'United Kingdom', lat: 51.5072, lon: -0.1276 });
    // And is found by its town.
    const found = await s.db.selectFrom('picture_search').select('picture_id').where(sql<boolean>`document @@ to_tsquery('simple', 'london')`).execute();
    expect(found.map((r) => r.picture_id)).toEqual([id]);
  });

  it('the backlog is read once: pictures from before places were kept get theirs', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const rows = [pictureRow(owner, 'beijing', [2015, 5, 1]), pictureRow(owner, 'sylt', [2016, 8, 1]), pictureRow(owner, 'missing file', [2017, 1, 1])];
    const inserted = await s.db.insertInto('pictures').values(rows).returning('id').execute();
    await s.deps.media.put(originalKey(rows[0]!.stem, 'jpg'), fs.readFileSync(BEIJING));
    await s.deps.media.put(originalKey(rows[1]!.stem, 'jpg'), fs.readFileSync(SYLT));
    expect(await backfillPlaces(s.deps)).toBe(2);
    expect(await placeRow(inserted[0]!.id)).toMatchObject({ town: 'Beijing', country: 'China' });
    expect(await placeRow(inserted[1]!.id)).toMatchObject({ town: 'List', country: 'Germany' });
    // Its original is missing: left for a later start.
    expect(await placeRow(inserted[2]!.id)).toBeUndefined();
    expect(await backfillPlaces(s.deps)).toBe(0);
    // A video read before videos' places were (an empty row): 20261203_pictures_video_places forgets its
    // row, not a photo's, and the next pass reads it by ffprobe.
    const [video] = await s.db.insertInto('pictures').values({ ...pictureRow(owner, 'paris video', [2018, 1, 1]), file_type: 'mov', mime: 'video/quicktime' }).returning(['id', 'stem']).execute();
    await s.deps.media.put(originalKey(video!.stem, 'mov'), fs.readFileSync(await videoWith('paris.mov', PARIS_MOV)));
    await savePlace(s.db, video!.id, null);
    await savePlace(s.db, inserted[2]!.id, null);
    await picturesMigrations['20261203_pictures_video_places'].up(s.db);
    expect(await placeRow(video!.id)).toBeUndefined();
    expect(await placeRow(inserted[2]!.id)).toEqual({ lat: null, lon: null, town: null, country: null });
    expect(await backfillPlaces(s.deps)).toBe(1);
    expect(await placeRow(video!.id)).toMatchObject({ town: 'Paris', country: 'France', lat: 48.8584, lon: 2.2945 });
  });
});
