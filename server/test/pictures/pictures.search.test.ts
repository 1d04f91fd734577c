import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SEARCH_PAGE, albumMessages, searchWords } from '@site/contracts';
import { savePlace } from '../../src/areas/pictures/pictures.repository.ts';
import { SEARCH_SOURCES_V2, SEARCH_SOURCES_LATEST, searchDocumentMigration } from '../../src/areas/pictures/pictures.search-sources.ts';
import { callerFor, createUser, databases, useTestServer } from '../helpers.ts';
import { pictureRow } from './pictures.fixtures.ts';

describe('search words', () => {
  it('are letters and digits, lower-cased, each once', () => {
    expect(searchWords('  Grandma\'s  DOG, Saint-Malo 2019 dog ')).toEqual(['grandma', 's', 'dog', 'saint', 'malo', '2019']);
    expect(searchWords('Zoë & Ørjan')).toEqual(['zoë', 'ørjan']);
    expect(searchWords('"):*!|&<->')).toEqual([]);
  });
});

describe.each(databases)('pictures.search (%s)', (kind) => {
  const s = useTestServer(kind);

  async function gallery() {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const family = await createUser(s.deps, 'family', 2);
    const add = async (by: { id: number }, caption: string, date: [number, number, number], status: 'approved' | 'pending' = 'approved') =>
      (await s.db.insertInto('pictures').values(pictureRow(by, caption, date, status)).returning('id').executeTakeFirstOrThrow()).id;
    const ids = {
      beach: await add(owner, 'Dogs on the beach', [2019, 5, 12]),
      cake: await add(owner, 'Birthday cake', [2021, 5, 3]),
      june: await add(owner, 'Garden party', [2021, 6, 20]),
      sept: await add(owner, 'School again', [2019, 9, 2]),
      truro: await add(owner, 'Cathedral', [2020, 0, 0]),
      familyPending: await add(family, 'Secret beach hut', [2019, 7, 1], 'pending'),
    };
    // Rows put in directly: their day counts as the upload would keep them.
    await sql`insert into picture_days (year, month, day, approved)
      select year, month, day, count(*) from pictures where status = 'approved' group by year, month, day`.execute(s.db);
    await savePlace(s.db, ids.truro, { lat: 50.2642, lon: -5.0511, town: 'Truro', country: 'United Kingdom' });
    await savePlace(s.db, ids.familyPending, { lat: 48.8584, lon: 2.2945, town: 'Paris', country: 'France' });
    await callerFor(s.deps, family).pictures.comment({ id: ids.cake, text: 'Grandma baked it!' });
    return { owner, friend, family, ids };
  }
  const found = async (caller: ReturnType<typeof callerFor>, q: string) => (await caller.pictures.search({ q })).items.map((p) => p.id);

  it('finds captions (stemmed), comments, towns, countries and dates; several words narrow', async () => {
    const { friend, ids } = await gallery();
    const call = callerFor(s.deps, friend);
    expect(await found(call, 'dog')).toEqual([ids.beach]);
    expect(await found(call, 'BEACHES')).toEqual([ids.beach]);
    expect(await found(call, 'grandma')).toEqual([ids.cake]);
    expect(await found(call, 'Truro')).toEqual([ids.truro]);
    expect(await found(call, 'united kingdom')).toEqual([ids.truro]);
    // Newest capture first, as the gallery.
    expect(await found(call, '2019')).toEqual([ids.sept, ids.beach]);
    expect(await found(call, 'May 2021')).toEqual([ids.cake]);
    expect(await found(call, 'may')).toEqual([ids.cake, ids.beach]);
    expect(await found(call, 'sept 2019')).toEqual([ids.sept]);
    expect(await found(call, 'dog 2019')).toEqual([ids.beach]);
    expect(await found(call, 'dog 2021')).toEqual([]);
    expect(await found(call, 'Truro 2019')).toEqual([]);
    expect(await found(call, '   ')).toEqual([]);
    expect(await found(call, 'the')).toEqual([]);
  });

  it('a member never finds another member\'s pending picture; its uploader and admins do', async () => {
    const { owner, friend, family, ids } = await gallery();
    expect(await found(callerFor(s.deps, friend), 'beach')).toEqual([ids.beach]);
    expect(await found(callerFor(s.deps, friend), 'paris')).toEqual([]);
    expect(await found(callerFor(s.deps, family), 'beach')).toEqual([ids.familyPending, ids.beach]);
    expect(await found(callerFor(s.deps, owner), 'france')).toEqual([ids.familyPending]);
    // Suggestions too.
    expect((await callerFor(s.deps, friend).pictures.suggest({ q: 'pa' })).suggestions).toEqual([]);
    expect((await callerFor(s.deps, family).pictures.suggest({ q: 'pa' })).suggestions).toEqual([{ label: 'Paris', query: 'Paris', kind: 'place' }]);
    // Approved: everyone's.
    await callerFor(s.deps, owner).pictures.approve({ id: ids.familyPending });
    expect(await found(callerFor(s.deps, friend), 'paris')).toEqual([ids.familyPending]);
  });

  it('follows changes at once: a caption edited, a comment deleted, a place found, a picture deleted', async () => {
    const { owner, friend, family, ids } = await gallery();
    const admin = callerFor(s.deps, owner);
    const call = callerFor(s.deps, friend);
    await admin.pictures.update({ id: ids.june, caption: 'Picnic with the dog', date: '2021-06-20' });
    expect(await found(call, 'dog')).toEqual([ids.june, ids.beach]);
    expect(await found(call, 'garden')).toEqual([]);
    const [comment] = (await call.pictures.social({ id: ids.cake })).comments;
    await callerFor(s.deps, family).pictures.deleteComment({ commentId: comment!.id });
    expect(await found(call, 'grandma')).toEqual([]);
    await savePlace(s.db, ids.sept, { lat: 50.1186, lon: -5.5343, town: 'Penzance', country: 'United Kingdom' });
    expect(await found(call, 'penzance')).toEqual([ids.sept]);
    expect(await found(call, 'kingdom')).toEqual([ids.truro, ids.sept]);
    await admin.pictures.delete({ id: ids.truro });
    expect(await found(call, 'kingdom')).toEqual([ids.sept]);
  });

  it('pages through many results with the cursor, each once, in the gallery\'s order', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const total = SEARCH_PAGE * 2 + 7;
    await s.db
      .insertInto('pictures')
      .values(Array.from({ length: total }, (_, i) => pictureRow(owner, `Holiday ${i}`, [2000 + (i % 20), 1 + (i % 12), 1 + (i % 28)])))
      .execute();
    const call = callerFor(s.deps, owner);
    const seen: number[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await call.pictures.search(cursor ? { q: 'holiday', cursor } : { q: 'holiday' });
      sizes.push(page.items.length);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([SEARCH_PAGE, SEARCH_PAGE, 7]);
    const order = await s.db.selectFrom('pictures').select('id').orderBy('year', 'desc').orderBy('month', 'desc').orderBy('day', 'desc').orderBy('id', 'desc').execute();
    expect(seen).toEqual(order.map((r) => r.id));
    await expect(call.pictures.search({ q: 'holiday', cursor: '2019.13.1.5' })).rejects.toThrow('That page of results is no longer there: search again.');
  });

  it('a guest searches only the shared album: places only when the link includes location', async () => {
    const { owner, ids } = await gallery();
    const admin = callerFor(s.deps, owner);
    const { id: albumId } = await admin.albums.create({ name: 'Cornwall', private: false });
    await admin.albums.addPictures({ albumId, pictureIds: [ids.truro, ids.cake] });
    const tokenOf = (url: string) => url.split('/').pop() ?? '';
    const plain = tokenOf((await admin.shares.create({ albumId })).url);
    const located = tokenOf((await admin.shares.create({ albumId, includeLocation: true })).url);
    const guest = callerFor(s.deps, null);
    const guestFinds = async (token: string, q: string) => (await guest.shares.search({ token, q })).items.map((p) => [p.id, p.uploader]);
    expect(await guestFinds(plain, 'cathedral')).toEqual([[ids.truro, null]]);
    expect(await guestFinds(plain, 'grandma')).toEqual([[ids.cake, null]]);
    // Outside the album.
    expect(await guestFinds(plain, 'dog')).toEqual([]);
    expect(await guestFinds(plain, 'truro')).toEqual([]);
    expect(await guestFinds(located, 'truro')).toEqual([[ids.truro, null]]);
    const locked = tokenOf((await admin.shares.create({ albumId, password: 'open sesame' })).url);
    await expect(guest.shares.search({ token: locked, q: 'cake' })).rejects.toThrow(albumMessages.passwordNeeded);
    const { pass } = await guest.shares.unlock({ token: locked, password: 'open sesame' });
    expect((await guest.shares.search({ token: locked, pass: pass ?? '', q: 'cake' })).items.map((p) => p.id)).toEqual([ids.cake]);
    await expect(guest.shares.search({ token: 'A'.repeat(22), q: 'cake' })).rejects.toThrow(albumMessages.gone);
  });

  it('suggests places, months and years of what the member sees, as whole queries', async () => {
    const { friend } = await gallery();
    const call = callerFor(s.deps, friend);
    const suggest = async (q: string) => (await call.pictures.suggest({ q })).suggestions.map((x) => `${x.kind}: ${x.label} => ${x.query}`);
    expect(await suggest('tr')).toEqual(['place: Truro => Truro']);
    expect(await suggest('uni')).toEqual(['place: United Kingdom => United Kingdom']);
    expect(await suggest('ma')).toEqual(['date: March => March', 'date: May => May', 'date: May 2021 => May 2021', 'date: May 2019 => May 2019']);
    expect(await suggest('may 20')).toEqual(['date: 2021 => may 2021', 'date: 2019 => may 2019']);
    expect(await suggest('20')).toEqual(['date: 2021 => 2021', 'date: 2020 => 2020', 'date: 2019 => 2019']);
    expect(await suggest('cathedral tr')).toEqual(['place: Truro => cathedral Truro']);
  });

  it('faces moved between people in one statement make their pictures\' documents again once; a face\'s other columns touch none', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const call = callerFor(s.deps, owner);
    const pictures = await s.db.insertInto('pictures').values([pictureRow(owner, 'One', [2020, 1, 1]), pictureRow(owner, 'Two', [2020, 1, 2])]).returning('id').execute();
    const [ann, bea] = await s.db.insertInto('people').values([{ name: 'Annabel', centroid: new Uint8Array(4) }, { name: 'Beatrix', centroid: new Uint8Array(4) }]).returning('id').execute();
    const face = (picture: number, ordinal: number) => ({ picture_id: picture, ordinal, person_id: ann!.id, box: sql<number[]>`array[0, 0, 1, 1]::real[]`, embedding: new Uint8Array(4), score: 1 });
    // Three faces in one statement: both pictures' documents name Annabel.
    await s.db.insertInto('faces').values([face(pictures[0]!.id, 0), face(pictures[0]!.id, 1), face(pictures[1]!.id, 0)]).execute();
    const ids = pictures.map((p) => p.id);
    expect(await found(call, 'annabel')).toEqual([...ids].reverse());
    // A face's own columns (the re-grouping's `paired` mark, its embedding): no document is written again.
    const versions = () => s.db.selectFrom('picture_search').select(sql<string>`xmin::text`.as('v')).where('picture_id', 'in', ids).orderBy('picture_id').execute();
    const before = await versions();
    await s.db.updateTable('faces').set({ paired: true, embedding: new Uint8Array(8) }).execute();
    expect(await versions()).toEqual(before);
    // The re-grouping moves them all to Beatrix in one statement: both documents follow.
    await s.db.updateTable('faces').set({ person_id: bea!.id }).execute();
    expect(await found(call, 'annabel')).toEqual([]);
    expect(await found(call, 'beatrix')).toEqual([...ids].reverse());
    // A picture's faces deleted: its document loses the name.
    await s.db.deleteFrom('faces').where('picture_id', '=', ids[0]!).execute();
    expect(await found(call, 'beatrix')).toEqual([ids[1]]);
  });

  it('accents do not count: "Malaga" finds Málaga, "zoe" Zoë (a caption and a person), suggestions show the name as written', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const add = async (caption: string, date: [number, number, number]) =>
      (await s.db.insertInto('pictures').values(pictureRow(owner, caption, date)).returning('id').executeTakeFirstOrThrow()).id;
    const malaga = await add('Harbour', [2022, 7, 1]);
    const zurich = await add('Lake', [2022, 6, 1]);
    const caption = await add('Zoë\'s first steps in São Paulo', [2021, 3, 1]);
    const portrait = await add('Portrait', [2020, 1, 1]);
    // "Renée" written decomposed (e and U+0301), as some programs save it.
    const crepe = await add('Crêpes at Æbelø, Straße, with Rene\u0301e', [2019, 2, 1]);
    await savePlace(s.db, malaga, { lat: 36.7213, lon: -4.4214, town: 'Málaga', country: 'Spain' });
    await savePlace(s.db, zurich, { lat: 47.3769, lon: 8.5417, town: 'Zürich', country: 'Switzerland' });
    const [person] = await s.db.insertInto('people').values({ name: 'Chloé Zoë Brontë', centroid: new Uint8Array(4) }).returning('id').execute();
    await s.db
      .insertInto('faces')
      .values({ picture_id: portrait, ordinal: 0, person_id: person!.id, box: sql`array[0, 0, 1, 1]::real[]`, embedding: new Uint8Array(4), score: 1 })
      .execute();
    const call = callerFor(s.deps, friend);
    expect(await found(call, 'Malaga')).toEqual([malaga]);
    expect(await found(call, 'málaga')).toEqual([malaga]);
    expect(await found(call, 'MÁLAGA')).toEqual([malaga]);
    expect(await found(call, 'zurich')).toEqual([zurich]);
    expect(await found(call, 'ZÜRICH')).toEqual([zurich]);
    expect(await found(call, 'zoe')).toEqual([caption, portrait]);
    expect(await found(call, 'Zoë')).toEqual([caption, portrait]);
    expect(await found(call, 'sao paulo')).toEqual([caption]);
    expect(await found(call, 'chloe bronte')).toEqual([portrait]);
    // Decomposed accents and the letters that become two.
    expect(await found(call, 'crepes aebelo strasse renee')).toEqual([crepe]);
    expect(await found(call, 'Renée')).toEqual([crepe]);
    expect(await found(call, 'Malta')).toEqual([]);

    const suggest = async (q: string) => (await call.pictures.suggest({ q })).suggestions.map((x) => `${x.kind}: ${x.label} => ${x.query}`);
    expect(await suggest('mal')).toEqual(['place: Málaga => Málaga']);
    expect(await suggest('MÁL')).toEqual(['place: Málaga => Málaga']);
    expect(await suggest('zu')).toEqual(['place: Zürich => Zürich']);
    expect(await suggest('zo')).toEqual(['person: Chloé Zoë Brontë => Chloé Zoë Brontë']);
    expect(await suggest('chloe')).toEqual(['person: Chloé Zoë Brontë => Chloé Zoë Brontë']);
    // A word already typed is not repeated in the query, with or without its accent.
    expect(await suggest('malaga harbour ma')).toContain('place: Málaga => harbour Málaga');

    // Documents made before the fold (V2) did not find it; the migration's rebuild of every document does.
    await searchDocumentMigration(SEARCH_SOURCES_V2, SEARCH_SOURCES_LATEST).up(s.db);
    expect(await found(call, 'malaga')).toEqual([]);
    await searchDocumentMigration(SEARCH_SOURCES_LATEST, SEARCH_SOURCES_V2).up(s.db);
    expect(await found(call, 'malaga')).toEqual([malaga]);
  });

  it('forgives typos in names of people, places and tags (pg_trgm) for members, never for guests; finds a place by its other names', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const add = async (caption: string, date: [number, number, number]) =>
      (await s.db.insertInto('pictures').values(pictureRow(owner, caption, date)).returning('id').executeTakeFirstOrThrow()).id;
    const sofa = await add('On the sofa', [2023, 4, 1]);
    const walk = await add('Walk', [2022, 9, 1]);
    const duomo = await add('The dome', [2021, 8, 1]);
    const berlin = await add('Wall', [2020, 8, 1]);
    const person = async (name: string, pictureId: number) => {
      const [row] = await s.db.insertInto('people').values({ name, centroid: new Uint8Array(4) }).returning('id').execute();
      await s.db
        .insertInto('faces')
        .values({ picture_id: pictureId, ordinal: 0, person_id: row!.id, box: sql`array[0, 0, 1, 1]::real[]`, embedding: new Uint8Array(4), score: 1 })
        .execute();
    };
    await person('Sheldon Cooper', sofa);
    await person('Penny', walk);
    await savePlace(s.db, walk, { lat: 43.4633, lon: 11.8796, town: 'Arezzo', country: 'Italy' });
    await savePlace(s.db, duomo, { lat: 43.7731, lon: 11.256, town: 'Florence', country: 'Italy' });
    await savePlace(s.db, berlin, { lat: 52.52, lon: 13.405, town: 'Berlin', country: 'Germany' });
    const call = callerFor(s.deps, friend);
    const search = async (q: string) => {
      const result = await call.pictures.search({ q });
      return { ids: result.items.map((p) => p.id), didYouMean: result.didYouMean };
    };
    // Typos: the nearest name is searched instead, and said.
    expect(await search('Sheldn')).toEqual({ ids: [sofa], didYouMean: 'Sheldon Cooper' });
    expect(await search('Penney')).toEqual({ ids: [walk], didYouMean: 'Penny' });
    expect(await search('arezo')).toEqual({ ids: [walk], didYouMean: 'Arezzo' });
    expect(await search('penney arezzo')).toEqual({ ids: [walk], didYouMean: 'Penny arezzo' });
    // Words that find something are not corrected; nothing near stays nothing; short words and numbers never.
    expect(await search('penny')).toEqual({ ids: [walk], didYouMean: undefined });
    expect(await search('Malta')).toEqual({ ids: [], didYouMean: undefined });
    expect(await search('zebra')).toEqual({ ids: [], didYouMean: undefined });
    expect(await search('pen')).toEqual({ ids: [], didYouMean: undefined });
    // Other names of a place: Firenze is Florence; Deutschland, Allemagne are Germany.
    expect(await search('Firenze')).toEqual({ ids: [duomo], didYouMean: undefined });
    expect(await search('florenz 2021')).toEqual({ ids: [duomo], didYouMean: undefined });
    expect(await search('Deutschland')).toEqual({ ids: [berlin], didYouMean: undefined });
    expect(await search('allemagne')).toEqual({ ids: [berlin], didYouMean: undefined });
    expect(await search('italia')).toEqual({ ids: [walk, duomo], didYouMean: undefined });
    // A hidden person's name is never a correction.
    await s.db.updateTable('people').set({ hidden: true }).where('name', '=', 'Sheldon Cooper').execute();
    expect(await search('Sheldn')).toEqual({ ids: [], didYouMean: undefined });
    // A guest of a link never gets a name by a typo (nor a place without location).
    const admin = callerFor(s.deps, owner);
    const { id: albumId } = await admin.albums.create({ name: 'Italy', private: false });
    await admin.albums.addPictures({ albumId, pictureIds: [walk, duomo] });
    const token = (await admin.shares.create({ albumId, includeLocation: true })).url.split('/').pop() ?? '';
    const guest = async (q: string) => {
      const result = await callerFor(s.deps, null).shares.search({ token, q });
      return { ids: result.items.map((p) => p.id), didYouMean: result.didYouMean };
    };
    expect(await guest('Penney')).toEqual({ ids: [], didYouMean: undefined });
    expect(await guest('Penny')).toEqual({ ids: [], didYouMean: undefined });
    expect(await guest('Firenze')).toEqual({ ids: [duomo], didYouMean: undefined });
  });

  it('site_fold folds the common Latin letters of both cases, and the suggestions\' place names stay indexed', async () => {
    const fold = async (text: string) => (await sql<{ f: string }>`select site_fold(${text}) as f`.execute(s.db)).rows[0]?.f;
    expect(await fold('Málaga Zürich São Paulo Bogotá Kraków Łódź Dvořák Ærøskøbing Œuvre Þingvellir Straße İzmir Zoë Rene\u0301e')).toBe(
      'Malaga Zurich Sao Paulo Bogota Krakow Lodz Dvorak AEroskobing OEuvre THingvellir Strasse Izmir Zoe Renee',
    );
    expect(await fold('àáâãäåçèéêëìíîïñòóôõöøùúûüýÿ ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝŸ')).toBe('aaaaaaceeeeiiiinoooooouuuuyy AAAAAACEEEEIIIINOOOOOOUUUUYY');
    expect(await fold('Москва 東京 plain')).toBe('Москва 東京 plain');
    // The folded names are kept by a trigger as the places change...
    const [place] = await s.db.insertInto('pictures').values(pictureRow(null, 'Quay', [2024, 1, 1])).returning('id').execute();
    await s.db.insertInto('picture_places').values({ picture_id: place!.id, lat: 36.72, lon: -4.42, town: 'Málaga', country: 'España' }).execute();
    const keys = () => s.db.selectFrom('picture_places').select(['town_key', 'country_key']).where('picture_id', '=', place!.id).executeTakeFirst();
    expect(await keys()).toEqual({ town_key: 'malaga', country_key: 'espana' });
    await s.db.updateTable('picture_places').set({ town: 'Zürich', country: 'Schweiz' }).where('picture_id', '=', place!.id).execute();
    expect(await keys()).toEqual({ town_key: 'zurich', country_key: 'schweiz' });
    // ...and the planner may take their index for a prefix (sequential scans off: a few rows would be read whole).
    const plan = await s.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return (await sql<Record<string, string>>`explain select town from picture_places where town_key like ${'mal%'}`.execute(trx)).rows
        .map((r) => Object.values(r).join(' '))
        .join('\n');
    });
    expect(plan).toContain('picture_places_town');
  });
});
