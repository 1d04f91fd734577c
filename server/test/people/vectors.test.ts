import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { peopleAfterRestore, peopleMigrations } from '../../src/areas/people/people.migrations.ts';
import { vectorBytes, vectorOf } from '../../src/areas/people/people.vectors.ts';
import { databases, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';

/**
 * The faces' embeddings and the people's centroids are stored as Float32 little-endian bytes (issue 48,
 * people.vectors.ts): the migration converts the real[] rows a site has, and a backup made before it
 * (the vectors as JSON arrays) is converted when restored.
 */
const EMBEDDING = [0.1, -0.2, 3e-8, 1];
const CENTROID = [0.25, -1.5, 0];
const asFloat32 = (v: number[]) => Array.from(Float32Array.from(v));

async function stored(s: TestServer) {
  const face = await s.db.selectFrom('faces').select('embedding').executeTakeFirstOrThrow();
  const person = await s.db.selectFrom('people').select('centroid').executeTakeFirstOrThrow();
  return { embedding: Array.from(vectorOf(face.embedding)), centroid: Array.from(vectorOf(person.centroid)) };
}

describe.each(databases)('people vectors as bytes (%s)', (kind) => {
  const s = useTestServer(kind);

  it('the migration turns real[] rows into Float32 little-endian bytes, number for number, and back', async () => {
    const migration = peopleMigrations['20261209_people_vector_bytes']!;
    await migration.down!(s.db);
    const picture = await s.db.insertInto('pictures').values(pictureRow(null, 'Then', [2019, 5, 12])).returning('id').executeTakeFirstOrThrow();
    const person = await sql<{ id: number }>`insert into people (name, centroid, face_count) values ('Zoë', ${`{${CENTROID.join(',')}}`}::real[], 1) returning id`.execute(s.db);
    await sql`insert into faces (picture_id, ordinal, person_id, box, embedding, score)
      values (${picture.id}, 0, ${person.rows[0]!.id}, array[0.1, 0.1, 0.2, 0.2]::real[], ${`{${EMBEDDING.join(',')}}`}::real[], 0.9)`.execute(s.db);
    await migration.up(s.db);
    expect(await stored(s)).toEqual({ embedding: asFloat32(EMBEDDING), centroid: asFloat32(CENTROID) });
    const bytes = await s.db.selectFrom('faces').select('embedding').executeTakeFirstOrThrow();
    expect(Buffer.from(bytes.embedding).toString('hex')).toBe(vectorBytes(EMBEDDING).toString('hex'));
    // Little-endian whatever the machine: 1 is 00 00 80 3f.
    expect(Buffer.from(bytes.embedding).subarray(12).toString('hex')).toBe('0000803f');

    await migration.down!(s.db);
    const back = await sql<{ embedding: number[] }>`select embedding from faces`.execute(s.db);
    expect(asFloat32(back.rows[0]!.embedding)).toEqual(asFloat32(EMBEDDING));
    await migration.up(s.db);
    expect(await stored(s)).toEqual({ embedding: asFloat32(EMBEDDING), centroid: asFloat32(CENTROID) });
  });

  it('a backup made before the bytes (JSON arrays of numbers) is restored as bytes; a newer one is left as it is', async () => {
    const picture = await s.db.insertInto('pictures').values(pictureRow(null, 'Then', [2019, 5, 12])).returning('id').executeTakeFirstOrThrow();
    // As the restore loads an archive's rows (backups.restore.ts): an old archive's array arrives as the bytes of its text.
    const restore = async (people: object[], faces: object[]) => {
      await sql`insert into people (name, centroid, face_count) select name, centroid, face_count from json_populate_recordset(null::people, ${JSON.stringify(people)}::json)`.execute(s.db);
      await sql`insert into faces (picture_id, ordinal, box, embedding, score)
        select picture_id, ordinal, box, embedding, score from json_populate_recordset(null::faces, ${JSON.stringify(faces)}::json)`.execute(s.db);
    };
    await restore([{ name: 'Zoë', centroid: CENTROID, face_count: 1 }], [{ picture_id: picture.id, ordinal: 0, box: [0.1, 0.1, 0.2, 0.2], embedding: EMBEDDING, score: 0.9 }]);
    await peopleAfterRestore(s.db, ['20261130_people_tables', '20261208_people_pairs']);
    expect(await stored(s)).toEqual({ embedding: asFloat32(EMBEDDING), centroid: asFloat32(CENTROID) });

    // An archive made with the bytes holds them as bytea's text (\x...): restored as they were.
    const [face] = await sql<{ line: string }>`select row_to_json(f)::text as line from faces f`.execute(s.db).then((r) => r.rows);
    const [person] = await sql<{ line: string }>`select row_to_json(p)::text as line from people p`.execute(s.db).then((r) => r.rows);
    await s.db.deleteFrom('faces').execute();
    await s.db.deleteFrom('people').execute();
    await restore([JSON.parse(person!.line) as object], [JSON.parse(face!.line) as object]);
    await peopleAfterRestore(s.db, ['20261130_people_tables', '20261208_people_pairs', '20261209_people_vector_bytes']);
    expect(await stored(s)).toEqual({ embedding: asFloat32(EMBEDDING), centroid: asFloat32(CENTROID) });
  });
});
