import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadAnswer } from '@site/contracts';
import { originalKey } from '../../src/areas/pictures/pictures.files.ts';
import { nearestTown, readPosition } from '../../src/areas/pictures/pictures.places.ts';
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
  });
});
