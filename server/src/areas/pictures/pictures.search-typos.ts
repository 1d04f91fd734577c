import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { seenBy, type Looker } from './pictures.repository.ts';

/**
 * Search's typos (issue 48): a word that finds nothing is compared, by PostgreSQL's pg_trgm
 * (`word_similarity`: the word against the most alike stretch of a name, both folded by site_fold), with
 * the names a member could have meant: the people (named, not hidden, people on) in pictures they see,
 * the towns and countries of those pictures, and their tags. The nearest from TYPO_SIMILARITY up
 * replaces the word: "Sheldn" becomes "Sheldon", "Penney" "Penny", "arezo" "Arezzo". Guests never get
 * a correction (a name could tell them who is in the pictures).
 *
 * It runs only when a search finds nothing, over the distinct names (a family's few hundred people and
 * places), so it needs no trigram index.
 */
export const TYPO_SIMILARITY = 0.55;
/** Shorter words, and numbers, are never corrected: "cat" is not a typo of "Cath". */
const TYPO_MIN_LENGTH = 4;

async function nearestName(db: Executor, looker: Looker, word: string): Promise<{ label: string; same: boolean } | null> {
  // The distinct names first (a few hundred), the near ones of those, and only then, for each near one,
  // whether the looker sees a picture it names (one row): joined to the pictures first, every place
  // of 100,000 pictures was read (1.1 s p50 for a word found nowhere, measured under load).
  const row = await sql<{ label: string; same: boolean }>`
    with typed as materialized (select lower(site_fold(${word})) as w),
    names as materialized (
      select pe.name as label, 'person' as kind from people pe
      where pe.name is not null and not pe.hidden and coalesce((select s.enabled from people_settings s), true)
      union
      select distinct pl.town, 'town' from picture_places pl where pl.town is not null
      union
      select distinct pl.country, 'country' from picture_places pl where pl.country is not null
      union
      select distinct t.tag, 'tag' from picture_tags t
    ),
    near as materialized (
      select names.label, names.kind, word_similarity(typed.w, lower(site_fold(names.label))) as score
      from names, typed
      where word_similarity(typed.w, lower(site_fold(names.label))) >= ${TYPO_SIMILARITY}
    )
    select near.label, (select typed.w from typed) = any(regexp_split_to_array(lower(site_fold(near.label)), '[^a-z0-9]+')) as same from near
    where case near.kind
      when 'person' then exists (select from people pe join faces f on f.person_id = pe.id join pictures on pictures.id = f.picture_id
        where pe.name = near.label and not pe.hidden and ${seenBy(looker)})
      when 'town' then exists (select from picture_places pl join pictures on pictures.id = pl.picture_id where pl.town = near.label and ${seenBy(looker)})
      when 'country' then exists (select from picture_places pl join pictures on pictures.id = pl.picture_id where pl.country = near.label and ${seenBy(looker)})
      else exists (select from picture_tags t join pictures on pictures.id = t.picture_id where t.tag = near.label and ${seenBy(looker)})
    end
    order by near.score desc, length(near.label), near.label
    limit 1`.execute(db);
  return row.rows[0] ?? null;
}

/**
 * The words again with each that finds nothing (`finds`) replaced by the nearest name, as one query
 * text; null when no word was replaced.
 */
export async function correctedWords(db: Executor, looker: Looker, words: readonly string[], finds: (word: string) => Promise<boolean>): Promise<string | null> {
  let changed = false;
  const out: string[] = [];
  for (const word of words) {
    if (word.length < TYPO_MIN_LENGTH || /^\d+$/.test(word)) {
      out.push(word);
      continue;
    }
    // The near names first (cheap): none, or the word is one of the name's words, and it is no typo;
    // only then whether the word finds something by itself (a caption's word is no typo either).
    const name = await nearestName(db, looker, word);
    if (name === null || name.same || (await finds(word))) {
      out.push(word);
      continue;
    }
    changed = true;
    out.push(name.label);
  }
  return changed ? out.join(' ') : null;
}
