import { describe, expect, it } from 'vitest';
import { peopleMessages } from '@site/contracts';
import { callerFor, createUser, databases, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';
import { vectorBytes } from '../../src/areas/people/people.vectors.ts';

/**
 * What hiding a person is (contracts/src/people/people.routes.ts): out of everyone's view (cards, faces,
 * search); listed on request and opened only by Family and by the person's namer, who alone may hide or
 * show them again. The faces are stored rows here (the face model's own run is people.test.ts).
 */
async function personIn(s: TestServer, pictureId: number, person: { name: string; hidden: boolean; namedBy: number | null }, ordinal = 0): Promise<number> {
  const row = await s.db
    .insertInto('people')
    .values({ name: person.name, hidden: person.hidden, named_by: person.namedBy, centroid: vectorBytes([1, 0]), face_count: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await s.db
    .insertInto('faces')
    .values({ picture_id: pictureId, ordinal, person_id: row.id, box: [0.1 + ordinal * 0.4, 0.1, 0.3, 0.3], embedding: vectorBytes([1, 0]), score: 0.9 })
    .execute();
  return row.id;
}

describe.each(databases)('hidden people (%s)', (kind) => {
  const s = useTestServer(kind);

  it('shows a hidden person only to Family and to their namer; only they hide or show them; never to a Friend, a pending account, anonymous or a guest', async () => {
    const admin = await createUser(s.deps, 'Admin', 3);
    const family = await createUser(s.deps, 'Fam', 2);
    const namer = await createUser(s.deps, 'Namer', 1);
    const friend = await createUser(s.deps, 'Friend', 1);
    const waiting = await createUser(s.deps, 'Waiting', 0);
    const picture = await s.db.insertInto('pictures').values(pictureRow(admin, 'Beach day', [2024, 6, 1])).returning('id').executeTakeFirstOrThrow();
    const hidden = await personIn(s, picture.id, { name: 'Secretaunt', hidden: true, namedBy: namer.id });
    const shown = await personIn(s, picture.id, { name: 'Openuncle', hidden: false, namedBy: null }, 1);

    const listed = async (user: typeof admin, includeHidden = true) => (await callerFor(s.deps, user).people.list({ includeHidden })).map((p) => p.name).sort();
    // Family, the admin and the namer: on request, with the hidden one.
    for (const user of [admin, family, namer]) {
      expect(await listed(user)).toEqual(['Openuncle', 'Secretaunt']);
      expect(await listed(user, false)).toEqual(['Openuncle']);
      expect(await callerFor(s.deps, user).people.get({ id: hidden })).toMatchObject({ id: hidden, name: 'Secretaunt', hidden: true, pictureIds: [picture.id] });
    }
    // Another Friend: not listed, not there.
    expect(await listed(friend)).toEqual(['Openuncle']);
    await expect(callerFor(s.deps, friend).people.get({ id: hidden })).rejects.toThrow(peopleMessages.noSuchPerson);
    await expect(callerFor(s.deps, friend).people.name({ id: hidden, name: 'Guess' })).rejects.toThrow(peopleMessages.noSuchPerson);
    await expect(callerFor(s.deps, friend).people.merge({ ids: [shown, hidden] })).rejects.toThrow(peopleMessages.noSuchPerson);
    await expect(callerFor(s.deps, friend).people.hide({ id: hidden, hidden: false })).rejects.toThrow(peopleMessages.noSuchPerson);
    // A Friend may not hide someone they did not name either: a clear refusal, nothing changes.
    await expect(callerFor(s.deps, friend).people.hide({ id: shown, hidden: true })).rejects.toThrow(
      'Only Family members, or whoever named this person, may hide or show them',
    );
    expect((await s.db.selectFrom('people').select('hidden').where('id', '=', shown).executeTakeFirstOrThrow()).hidden).toBe(false);
    // Nowhere else either: the viewer's "In this picture", the search and its suggestions.
    expect((await callerFor(s.deps, friend).people.inPicture({ pictureId: picture.id })).map((f) => f.name)).toEqual(['Openuncle']);
    expect((await callerFor(s.deps, friend).pictures.search({ q: 'secretaunt' })).items).toEqual([]);
    expect((await callerFor(s.deps, friend).pictures.search({ q: 'openuncle' })).items.map((p) => p.id)).toEqual([picture.id]);
    expect((await callerFor(s.deps, friend).pictures.suggest({ q: 'secre' })).suggestions).toEqual([]);
    // Pending and anonymous: refused by level.
    await expect(callerFor(s.deps, waiting).people.list({ includeHidden: true })).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, waiting).people.get({ id: hidden })).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, waiting).people.hide({ id: hidden, hidden: false })).rejects.toThrow('Your account level does not allow this');
    await expect(callerFor(s.deps, null).people.list({ includeHidden: true })).rejects.toThrow('You need to log in to do this');
    await expect(callerFor(s.deps, null).people.hide({ id: hidden, hidden: false })).rejects.toThrow('You need to log in to do this');
    // A guest of a view link: no name, hidden or not.
    const { id: albumId } = await callerFor(s.deps, admin).albums.create({ name: 'Beach', private: false });
    await callerFor(s.deps, admin).albums.addPictures({ albumId, pictureIds: [picture.id] });
    const token = (await callerFor(s.deps, admin).shares.create({ albumId, includeLocation: true })).url.split('/').pop() ?? '';
    expect((await callerFor(s.deps, null).shares.search({ token, q: 'secretaunt' })).items).toEqual([]);
    expect((await callerFor(s.deps, null).shares.search({ token, q: 'beach' })).items.map((p) => p.id)).toEqual([picture.id]);
    expect(JSON.stringify(await callerFor(s.deps, null).shares.open({ token }))).not.toContain('Secretaunt');

    // The namer shows them again, and hides them; Family does the same for anyone.
    await callerFor(s.deps, namer).people.hide({ id: hidden, hidden: false });
    expect(await listed(friend, false)).toEqual(['Openuncle', 'Secretaunt']);
    await callerFor(s.deps, namer).people.hide({ id: hidden, hidden: true });
    expect(await listed(friend)).toEqual(['Openuncle']);
    await callerFor(s.deps, family).people.hide({ id: shown, hidden: true });
    expect(await listed(friend)).toEqual([]);
    expect(await listed(namer)).toEqual(['Secretaunt']);
    await callerFor(s.deps, admin).people.hide({ id: shown, hidden: false });
    await callerFor(s.deps, admin).people.hide({ id: hidden, hidden: false });
    expect(await listed(friend, false)).toEqual(['Openuncle', 'Secretaunt']);
    // Naming makes the member the namer: the Friend may now hide the one they named.
    await callerFor(s.deps, friend).people.name({ id: shown, name: 'Uncle Bob' });
    await callerFor(s.deps, friend).people.hide({ id: shown, hidden: true });
    expect((await callerFor(s.deps, friend).people.get({ id: shown })).hidden).toBe(true);
    await expect(callerFor(s.deps, namer).people.get({ id: shown })).rejects.toThrow(peopleMessages.noSuchPerson);
  });
});
