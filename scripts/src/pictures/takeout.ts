import path from 'node:path';

/**
 * How a Google Photos Takeout is laid out, and the rules that match a photo to its sidecar (the
 * `*.json` with its date, place, description and flags). The rules are the ones real takeouts need,
 * as immich-go's users found them (github.com/simulot/immich-go, docs/google-takeout.md):
 * - a sidecar's name is cut to 46 characters before `.json`
 *   (`a-very-long-file-name-from-a-phone-camera-app-2.jpg` -> `a-very-long-file-name-from-a-phone-camera-app-.json`);
 * - Google's counter for a second file of the same name goes after the extension in the sidecar's name:
 *   `IMG.JPG(1).json` belongs to `IMG(1).JPG`;
 * - newer takeouts name sidecars `IMG.JPG.supplemental-metadata.json`, cut the same way
 *   (`IMG_20240101_123456.jpg.supplemental-metad.json`), with the counter after it (`...metadata(1).json`);
 * - an edited copy (`IMG-edited.JPG`, `IMG-bearbeitet.JPG`, ...) has no sidecar of its own: it shares its original's;
 * - a sidecar may be in another zip part than its photo: the matching runs over every part's listing;
 * - folder names are localised ("Google Photos", "Google Fotos", "Fotky Google", "Photos from 2019",
 *   "Fotos von 2019", ...), and so is the album's metadata file (`metadata.json`, `métadonnées.json`, `Metadaten.json`, ...).
 * Anything not under a Google Photos folder is a plain folder of photos.
 */

/** The localised names of the takeout's Google Photos folder. */
export const GOOGLE_PHOTOS_FOLDERS = ['Google Photos', 'Google Fotos', 'Google Foto', 'Fotky Google', 'Google Фото', 'Zdjęcia Google', 'Google Fotoğraflar', 'Google Fotók', 'Google Photos™'];

/** The localised names of an album folder's own metadata file. */
export const ALBUM_METADATA_FILES = ['metadata.json', 'métadonnées.json', 'metadaten.json', 'metadatos.json', 'metadati.json', 'metadados.json', 'metagegevens.json', 'metadane.json', 'metadata-album.json', 'metaadatok.json', 'metadatové údaje.json', 'метаданные.json', 'メタデータ.json'];

/** The localised words Google adds to an edited copy's name (`IMG-edited.JPG`). */
export const EDITED_WORDS = ['edited', 'bearbeitet', 'modifié', 'modificato', 'editado', 'editada', 'bewerkt', 'redigerad', 'redigert', 'redigeret', 'muokattu', 'edytowane', 'upraveno', 'upravené', 'szerkesztett', 'düzenlendi', 'изменено', '編集済み', '已编辑', '편집됨'];

/** "Photos from 2019" and its translations: the takeout's year folders, which are not albums. */
const YEAR_FOLDER = /^(?:photos from|fotos von|photos de|fotos de|foto dal|foto del|foto's uit|fotky z roku|fotky z|zdjęcia z|fotos från|bilder fra|billeder fra|kuvat vuodelta|fotók|фото за|photos from the year)\s+\d{4}$/i;
/** The longest a sidecar's name is before `.json`. */
const SIDECAR_CUT = 46;
const SUPPLEMENTAL = '.supplemental-metadata';

const fold = (name: string) => name.normalize('NFC').toLowerCase();
const googleFolders = new Set(GOOGLE_PHOTOS_FOLDERS.map(fold));
const albumFiles = new Set(ALBUM_METADATA_FILES.map(fold));
const editedSuffix = new RegExp(`-(?:${EDITED_WORDS.join('|')})$`, 'iu');

/** What a photo's sidecar says, kept small (a takeout may hold a hundred thousand of them). */
export type Sidecar = { taken: number | null; lat: number | null; lon: number | null; description: string; favorited: boolean; trashed: boolean; title: string };

/** Reads a takeout JSON: a photo's sidecar, an album's metadata (its title), or something else (null). */
export function readTakeoutJson(text: string): { kind: 'sidecar'; sidecar: Sidecar } | { kind: 'album'; title: string } | null {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const title = typeof data.title === 'string' ? data.title : '';
  if ('photoTakenTime' in data || 'geoData' in data || 'creationTime' in data || 'imageViews' in data) {
    const taken = Number((data.photoTakenTime as { timestamp?: unknown } | undefined)?.timestamp);
    const geo = (data.geoData ?? data.geoDataExif) as { latitude?: unknown; longitude?: unknown } | undefined;
    const lat = typeof geo?.latitude === 'number' ? geo.latitude : null;
    const lon = typeof geo?.longitude === 'number' ? geo.longitude : null;
    // (0, 0) is Google's "no place".
    const placed = lat !== null && lon !== null && !(lat === 0 && lon === 0);
    return {
      kind: 'sidecar',
      sidecar: {
        taken: Number.isFinite(taken) && taken > 0 ? taken : null,
        lat: placed ? lat : null,
        lon: placed ? lon : null,
        description: typeof data.description === 'string' ? data.description : '',
        favorited: data.favorited === true,
        trashed: data.trashed === true,
        title,
      },
    };
  }
  return title ? { kind: 'album', title } : null;
}

/** A path inside a source (`/` between folders), and where it sits in a takeout. */
export type Placed = {
  /** The folder's path from the Google Photos folder (`Photos from 2019`, `Summer`), or the whole folder path outside a takeout. */
  dir: string;
  name: string;
  /** Under a Google Photos folder. */
  takeout: boolean;
  /** The folder directly under the Google Photos folder (takeout), or the file's own folder (plain); '' for none. */
  top: string;
};

export function placeOf(entryPath: string): Placed {
  const parts = entryPath.normalize('NFC').split('/').filter((p) => p !== '' && p !== '.');
  const name = parts.pop() ?? '';
  const root = parts.findIndex((p) => googleFolders.has(fold(p)));
  if (root >= 0) {
    const inside = parts.slice(root + 1);
    return { dir: inside.join('/'), name, takeout: true, top: inside[0] ?? '' };
  }
  return { dir: parts.join('/'), name, takeout: false, top: parts.at(-1) ?? '' };
}

export const isJson = (name: string) => /\.json$/i.test(name);
export const isAlbumMetadataFile = (name: string) => albumFiles.has(fold(name));
/** A takeout's year folder ("Photos from 2019", localised): not an album. */
export const isYearFolder = (name: string) => YEAR_FOLDER.test(name.normalize('NFC').trim());

/** A sidecar's name without `.json`: the name it was made from (cut), and Google's counter. */
function sidecarKey(jsonName: string): { key: string; counter: string } {
  const bare = jsonName.normalize('NFC').replace(/\.json$/i, '');
  const m = /^(.*?)(\(\d+\))$/.exec(bare);
  return m ? { key: m[1] ?? '', counter: m[2] ?? '' } : { key: bare, counter: '' };
}

/** The name Google gave a photo's sidecar from (counter and edited word taken off), and the counter. */
export function originalOf(mediaName: string): { base: string; counter: string } {
  const name = mediaName.normalize('NFC');
  const ext = path.extname(name);
  let stem = name.slice(0, name.length - ext.length);
  let counter = '';
  for (let i = 0; i < 2; i++) {
    const numbered = /^(.*?)(\(\d+\))$/.exec(stem);
    if (numbered && !counter) {
      stem = numbered[1] ?? '';
      counter = numbered[2] ?? '';
      continue;
    }
    const edited = editedSuffix.exec(stem);
    if (edited) {
      stem = stem.slice(0, edited.index);
      continue;
    }
    break;
  }
  return { base: stem + ext, counter };
}

/**
 * Every sidecar and album title of a takeout, from all its parts, then asked for each photo. Keys are
 * folder, name as Google cut it, counter; a photo looks up the cuts its name can have.
 */
export class SidecarIndex {
  private readonly sidecars = new Map<string, Sidecar>();
  private readonly byTitle = new Map<string, Sidecar>();
  private readonly albums = new Map<string, string>();

  /** Records a takeout JSON found at `entryPath`, with its text. */
  add(entryPath: string, text: string): void {
    const place = placeOf(entryPath);
    const read = readTakeoutJson(text);
    if (!read) return;
    if (read.kind === 'album' || isAlbumMetadataFile(place.name)) {
      if (read.kind === 'album' && place.dir) this.albums.set(place.dir, read.title);
      return;
    }
    const { key, counter } = sidecarKey(place.name);
    this.sidecars.set(`${place.dir}\0${key}\0${counter}`, read.sidecar);
    if (read.sidecar.title) this.byTitle.set(`${place.dir}\0${read.sidecar.title.normalize('NFC')}\0${counter}`, read.sidecar);
  }

  /** The sidecar of the photo at `entryPath`, or null. */
  sidecarOf(entryPath: string): Sidecar | null {
    const place = placeOf(entryPath);
    const { base, counter } = originalOf(place.name);
    const find = (key: string) => this.sidecars.get(`${place.dir}\0${key}\0${counter}`);
    // `IMG.JPG.json`, `IMG.JPG.supplemental-metadata.json`, and every cut of them down to 46 characters.
    for (const full of [base, base + SUPPLEMENTAL]) {
      const exact = find(full);
      if (exact) return exact;
    }
    const longest = base + SUPPLEMENTAL;
    for (let length = longest.length - 1; length >= Math.min(base.length, SIDECAR_CUT); length--) {
      const cut = find(longest.slice(0, length));
      if (cut) return cut;
    }
    // A name with brackets of its own (`party (2).jpg`, not Google's counter) has its sidecar under that name.
    const named = place.name.normalize('NFC');
    const own = counter ? (this.sidecars.get(`${place.dir}\0${named}\0`) ?? this.sidecars.get(`${place.dir}\0${named + SUPPLEMENTAL}\0`)) : undefined;
    if (own) return own;
    // The sidecar's own record of the name (its `title`), when a cut left nothing to tell by.
    return this.byTitle.get(`${place.dir}\0${base}\0${counter}`) ?? null;
  }

  /**
   * The album a file is in: in a takeout, the folder under Google Photos unless it is a year folder,
   * titled by its metadata file; outside one, its own folder when `fromFolders`. Null for none.
   */
  albumOf(entryPath: string, fromFolders: boolean): string | null {
    const place = placeOf(entryPath);
    if (!place.takeout) return fromFolders && place.top ? place.top : null;
    if (!place.top) return null;
    const title = this.albums.get(place.top);
    if (title) return title;
    return isYearFolder(place.top) ? null : place.top;
  }

  get size(): number {
    return this.sidecars.size;
  }
}
