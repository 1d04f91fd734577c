import { describe, expect, it } from 'vitest';
import { albumNameOf, captionOf } from '@site/server/areas/pictures/pictures.import';
import { captionSchema } from '@site/contracts';
import { isYearFolder, originalOf, placeOf, SidecarIndex } from './takeout.ts';

const sidecar = (taken: number, extra: object = {}) => JSON.stringify({ title: 'x', photoTakenTime: { timestamp: String(taken) }, ...extra });

describe('takeout: matching photos to sidecars', () => {
  it('places a path under the localised Google Photos folder, and tells year folders from albums', () => {
    expect(placeOf('Takeout/Google Photos/Photos from 2019/IMG.JPG')).toEqual({ dir: 'Photos from 2019', name: 'IMG.JPG', takeout: true, top: 'Photos from 2019' });
    expect(placeOf('Takeout/Fotky Google/Dovolená/IMG.JPG').top).toBe('Dovolená');
    expect(placeOf('Takeout/Google Fotos/x.jpg')).toMatchObject({ dir: '', takeout: true, top: '' });
    expect(placeOf('Scans/1987/x.jpg')).toEqual({ dir: 'Scans/1987', name: 'x.jpg', takeout: false, top: '1987' });
    for (const year of ['Photos from 2019', 'Fotos von 2003', 'Photos de 2011', 'Fotky z roku 2020', 'Foto dal 2015']) expect(isYearFolder(year)).toBe(true);
    for (const album of ['Summer 2019', 'Photos', 'Trip']) expect(isYearFolder(album)).toBe(false);
  });

  it('takes the counter and the edited word off a name', () => {
    expect(originalOf('IMG(1).JPG')).toEqual({ base: 'IMG.JPG', counter: '(1)' });
    expect(originalOf('IMG-edited.JPG')).toEqual({ base: 'IMG.JPG', counter: '' });
    expect(originalOf('IMG-bearbeitet.jpg')).toEqual({ base: 'IMG.jpg', counter: '' });
    expect(originalOf('IMG(2)-edited.jpg')).toEqual({ base: 'IMG.jpg', counter: '(2)' });
  });

  it('finds each sidecar by the rules of real takeouts', () => {
    const index = new SidecarIndex();
    const dir = 'Takeout/Google Photos/Photos from 2019';
    const long = 'a-very-long-file-name-from-a-phone-camera-app-2.jpg';
    index.add(`${dir}/IMG.JPG.json`, sidecar(1));
    index.add(`${dir}/IMG.JPG(1).json`, sidecar(2));
    index.add(`${dir}/${long.slice(0, 46)}.json`, sidecar(3));
    index.add(`${dir}/PXL_20240101.jpg.supplemental-metadata.json`, sidecar(4));
    index.add(`${dir}/IMG_20240101_123456789.jpg.supplemental-metad.json`, sidecar(5));
    index.add(`${dir}/IMG_20240101_123456789.jpg.supplemental-metad(1).json`, sidecar(6));
    index.add(`${dir}/party (2).jpg.json`, sidecar(7));
    // An album's metadata file is not a sidecar: it titles its folder.
    index.add('Takeout/Google Photos/Trip/métadonnées.json', JSON.stringify({ title: 'Our trip', description: '' }));
    const taken = (name: string) => index.sidecarOf(`${dir}/${name}`)?.taken ?? null;
    expect(taken('IMG.JPG')).toBe(1);
    expect(taken('IMG(1).JPG')).toBe(2);
    expect(taken('IMG-edited.JPG')).toBe(1);
    expect(taken(long)).toBe(3);
    expect(taken('PXL_20240101.jpg')).toBe(4);
    expect(taken('IMG_20240101_123456789.jpg')).toBe(5);
    expect(taken('IMG_20240101_123456789(1).jpg')).toBe(6);
    expect(taken('party (2).jpg')).toBe(7);
    expect(taken('OTHER.JPG')).toBeNull();
    // Another folder's sidecar is not this one's.
    expect(index.sidecarOf('Takeout/Google Photos/Trip/IMG.JPG')).toBeNull();
    expect(index.albumOf('Takeout/Google Photos/Trip/IMG.JPG', false)).toBe('Our trip');
    expect(index.albumOf('Takeout/Google Photos/Hiking/IMG.JPG', false)).toBe('Hiking');
    expect(index.albumOf(`${dir}/IMG.JPG`, false)).toBeNull();
    expect(index.albumOf('Scans/1987/x.jpg', false)).toBeNull();
    expect(index.albumOf('Scans/1987/x.jpg', true)).toBe('1987');
  });

  it('reads (0, 0) as no place, and the trashed and favourite flags', () => {
    const index = new SidecarIndex();
    index.add('Takeout/Google Photos/Photos from 2020/a.jpg.json', sidecar(9, { geoData: { latitude: 0, longitude: 0 }, trashed: true, favorited: true, description: 'Hi' }));
    expect(index.sidecarOf('Takeout/Google Photos/Photos from 2020/a.jpg')).toEqual({ taken: 9, lat: null, lon: null, description: 'Hi', favorited: true, trashed: true, title: 'x' });
  });
});

describe('takeout: descriptions and titles as the gallery takes them', () => {
  it('puts a description on one line, cut to the caption length without breaking a character', () => {
    expect(captionOf('Picnic\n by the\ttower ')).toBe('Picnic by the tower');
    const long = captionOf('\u{1F600}'.repeat(400));
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long.endsWith('\u2026')).toBe(true);
    expect(captionSchema.safeParse(long).success).toBe(true);
    expect(captionSchema.safeParse(captionOf('broken \uD800 half')).success).toBe(true);
    expect(albumNameOf('x'.repeat(150))).toHaveLength(100);
  });
});
