/**
 * People benchmarks (issue 40). Prints numbers; asserts nothing.   Run: npm run bench:people
 *
 * 1. Indexing: BENCH_PEOPLE_PICTURES (60) approved 1024 px JPEGs made from the real face photos of
 *    server/test/people/fixtures (each flipped, cropped and scaled differently) indexed one after
 *    another by the real indexing child: pictures per second (goal >= 1), the child's peak resident
 *    memory as it reports it (VmHWM; goal < 500 MB), how many times it loaded its models (goal 1).
 * 2. The gallery while the backlog runs: the production bundle in a child process with
 *    BENCH_GALLERY_PICTURES (5000) pictures and the same backlog, a gallery page (pictures.page) under
 *    BENCH_CONNECTIONS (10) connections for BENCH_ROUND_SECONDS (5) s with people turned off (idle),
 *    then on (the worker indexing beside it): p99 of each (goal: backlog p99 <= 2 x idle p99).
 * 3. From an owner's upload (approved at once) to its faces stored, with the worker and the change
 *    feed as `npm start` runs them: cold (the child starts) and warm (goal: searchable within 10 s).
 * 4. Grouping (issue 48): pairwise precision and recall, people made and time on ../shared/faces-tuning
 *    (61 labelled photos of 13 people, 2 group photos; the embeddings from
 *    server/test/people/faces-tuning.embeddings.json), for the online centroid as it was shipped and
 *    average-linkage re-grouping at several thresholds; then the worker's re-grouping (regroup, on
 *    PGlite) of BENCH_GROUP_FACES (10000) synthetic faces after a batch of 10 new ones, the others'
 *    pairs stored (goal < 10 s), and every face against every face on BENCH_GROUP_QUADRATIC_FACES (2000).
 * 5. `embed` (not run by default): computes the embeddings of faces-tuning again with the real
 *    indexing child (about 1 s a photo) and writes that JSON file.
 * Name sections to run only those: npm run bench:people -- index gallery latency grouping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '@site/server/app';
import { watchDatabaseChanges } from '@site/server/watch-changes';
import { originalKey } from '@site/server/areas/pictures/pictures.files';
import { drainIndex, indexChildOf } from '@site/server/areas/people/people.worker';
import { IndexChild, indexChildStats } from '@site/server/areas/people/people.child';
import { addToMean, assignFaces, unit, JOIN_SIMILARITY, type Candidate } from '@site/server/areas/people/people.cluster';
import { groupFaces, pairwiseScores, similarPairs, GROUP_SIMILARITY, type GroupFace } from '@site/server/areas/people/people.grouping';
import { SUGGEST_SIMILARITY } from '@site/server/areas/people/people.suggestions';
import { regroup } from '@site/server/areas/people/people.regroup';
import { vectorBytes } from '@site/server/areas/people/people.vectors';
import { readTuningEmbeddings, tuningFaces, tuningPhotos, writeTuningEmbeddings, TUNING_DIR, TUNING_EMBEDDINGS } from '@site/server/areas/people/people.tuning';
import { openBenchSite, serveUntilStdinEnds, type BenchSite } from './bench-site.ts';
import { buildLabel, startBenchProcess } from './server-process.ts';

const FACE_PICTURES = Number(process.env.BENCH_PEOPLE_PICTURES ?? 60);
const GALLERY_PICTURES = Number(process.env.BENCH_GALLERY_PICTURES ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'test', 'people', 'fixtures');

/** `n` approved 1024 px JPEG pictures from the face fixtures, in the media store and the database (the approval trigger queues them). */
async function addFacePictures(site: BenchSite, n: number): Promise<void> {
  const sources = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.jpg'));
  for (let i = 0; i < n; i++) {
    const source = path.join(FIXTURES, sources[i % sources.length] ?? '');
    const meta = await sharp(source).metadata();
    const cut = 0.04 * (i % 5);
    let image = sharp(source).extract({
      left: Math.round((meta.width ?? 0) * cut),
      top: 0,
      width: Math.round((meta.width ?? 0) * (1 - cut)),
      height: meta.height ?? 0,
    });
    if (i % 2 === 1) image = image.flop();
    const data = await image.resize(1024, 1024, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer();
    const stem = `${i.toString(16).padStart(8, '0')}${'f'.repeat(24)}`;
    await site.deps.media.put(originalKey(stem, 'jpg'), data);
    await site.deps.db
      .insertInto('pictures')
      .values({
        stem,
        file_type: 'jpg',
        mime: 'image/jpeg',
        size_bytes: data.length,
        caption: `Faces ${i}`,
        year: 2024,
        month: 5,
        day: 1 + (i % 28),
        status: 'approved',
        uploaded_by: null,
        sha256: null,
        thumb_status: 'ready',
        thumb_width: 400,
        thumb_height: 300,
      })
      .execute();
  }
}

async function indexing(): Promise<void> {
  console.log(`\n1. Indexing ${FACE_PICTURES} pictures of 1024 px made from real face photos, one child (in process, ${buildLabel})`);
  const site = await openBenchSite('bench-people-', { PEOPLE_INDEXING: 'off' });
  try {
    await addFacePictures(site, FACE_PICTURES);
    // The first picture loads the models: timed apart from the rest.
    const loadStart = performance.now();
    const first = await site.deps.db.selectFrom('picture_index').select('picture_id').orderBy('picture_id').executeTakeFirstOrThrow();
    await site.deps.db.updateTable('picture_index').set({ run_after: new Date(Date.now() + 3_600_000) }).where('picture_id', '<>', first.picture_id).execute();
    await drainIndex(site.deps);
    const loadMs = performance.now() - loadStart;
    await site.deps.db.updateTable('picture_index').set({ run_after: new Date(0) }).where('state', '=', 'pending').execute();
    let maxRss = 0;
    const sampler = setInterval(() => {
      const pid = indexChildOf(site.deps).pid;
      if (!pid) return;
      try {
        const rss = Number(/VmRSS:\s*(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
        maxRss = Math.max(maxRss, rss);
      } catch {
        // Between two children.
      }
    }, 100);
    const start = performance.now();
    const n = await drainIndex(site.deps);
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const faces = await site.deps.db.selectFrom('faces').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const people = await site.deps.db.selectFrom('people').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    console.log(`  first picture (starts the child, loads the models) ${loadMs.toFixed(0)} ms`);
    console.log(`  ${n} more pictures in ${seconds.toFixed(1)} s: ${(n / seconds).toFixed(2)} pictures/s (goal >= 1)`);
    console.log(`  ${faces.n} faces, ${people.n} people; models loaded ${indexChildStats.starts} time(s) (goal 1)`);
    console.log(`  child peak resident memory ${(indexChildStats.maxPeakBytes / 1048576).toFixed(0)} MB (VmHWM), sampled RSS max ${(maxRss / 1048576).toFixed(0)} MB (goal < 500 MB)`);
  } finally {
    await indexChildOf(site.deps).close();
    await site.close();
  }
}

type Served = { base: string; cookie: string };

/** Child process: the real app (its workers on) with GALLERY_PICTURES plain pictures and FACE_PICTURES waiting to be indexed, people off. */
async function serveGalleryWithBacklog(): Promise<void> {
  const site = await openBenchSite('bench-people-gallery-', { PEOPLE_INDEXING: 'on' });
  const db = site.deps.db;
  await db.updateTable('people_settings').set({ enabled: false }).execute();
  await sql`
    insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status, thumb_width, thumb_height)
    select md5(i::text), 'jpg', 'image/jpeg', 1000, 'Picture ' || i, 2000 + (i % 25), 1 + (i / 25) % 12, 1 + (i / 300) % 28,
      'approved', 1, 'ready', 400, 300
    from generate_series(1, ${sql.lit(GALLERY_PICTURES)}) as i`.execute(db);
  // Only the face pictures are the backlog (the plain rows have no files).
  await sql`delete from picture_index`.execute(db);
  await addFacePictures(site, FACE_PICTURES);
  await sql`delete from picture_days`.execute(db);
  await sql`insert into picture_days (year, month, day, approved)
    select year, month, day, count(*) from pictures where status = 'approved' group by year, month, day`.execute(db);
  await sql`analyze`.execute(db);
  const app = await buildApp(site.deps);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ base, cookie: site.cookie } satisfies Served)}\n`);
  serveUntilStdinEnds(site, () => app.close());
}

async function trpc(info: Served, procedure: string, input: unknown): Promise<unknown> {
  const res = await fetch(`${info.base}/trpc/${procedure}`, { method: 'POST', headers: { cookie: info.cookie, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  if (!res.ok) throw new Error(`${procedure} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function status(info: Served): Promise<{ indexed: number; total: number }> {
  const res = await fetch(`${info.base}/trpc/people.status`, { headers: { cookie: info.cookie } });
  return ((await res.json()) as { result: { data: { indexed: number; total: number } } }).result.data;
}

async function galleryP99(info: Served): Promise<{ p99: number; rate: number }> {
  const input = encodeURIComponent(JSON.stringify({ 0: { type: 24, index: 3 } }));
  const result = await autocannon({ url: `${info.base}/trpc/pictures.page?batch=1&input=${input}`, headers: { cookie: info.cookie }, connections: CONNECTIONS, duration: ROUND_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`gallery: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { p99: result.latency.p99, rate: result.requests.total / result.duration };
}

async function galleryDuringBacklog(): Promise<void> {
  console.log(`\n2. The gallery page (${GALLERY_PICTURES} pictures, ${CONNECTIONS} connections, ${ROUND_SECONDS} s) idle, then while ${FACE_PICTURES} pictures are indexed (${buildLabel})`);
  const { process: child, info } = await startBenchProcess<Served>(import.meta.url, ['--serve-people-gallery']);
  try {
    await galleryP99(info); // warm up
    const idle = await galleryP99(info);
    await trpc(info, 'people.setEnabled', { enabled: true });
    const until = Date.now() + 60_000;
    // The worker polls every 5 s and its child loads the models first: measure once it is indexing.
    while ((await status(info)).indexed < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    const before = await status(info);
    const busy = await galleryP99(info);
    const after = await status(info);
    console.log(`  idle:            p99 ${idle.p99.toFixed(0)} ms, ${idle.rate.toFixed(0)} req/s`);
    console.log(`  during backlog:  p99 ${busy.p99.toFixed(0)} ms, ${busy.rate.toFixed(0)} req/s (${after.indexed - before.indexed} pictures indexed meanwhile)`);
    console.log(`  ratio p99 backlog / idle ${(busy.p99 / Math.max(1, idle.p99)).toFixed(2)} (goal <= 2)`);
  } finally {
    child.stdin.end();
  }
}

/** From an owner's upload (approved at once) to its faces stored, the worker and the change feed running as in `npm start`: cold (the child starts) and warm. */
async function approvalToIndexed(): Promise<void> {
  console.log(`\n3. From an approved upload to its faces stored, on an idle server (in process, ${buildLabel})`);
  const site = await openBenchSite('bench-people-latency-', { PEOPLE_INDEXING: 'on' });
  const app = await buildApp(site.deps);
  const watching = watchDatabaseChanges(site.handle, site.deps, app.log);
  await watching.ready;
  await app.ready();
  try {
    for (const [label, name] of [
      ['cold (child starts, models load)', 'group-6.jpg'],
      ['warm (child running)', 'portrait-6a.jpg'],
      ['warm (child running)', 'group-4.jpg'],
    ] as const) {
      const data = fs.readFileSync(path.join(FIXTURES, name));
      const boundary = `----bench${Math.random().toString(16).slice(2)}`;
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n${name}\r\n--${boundary}--\r\n`),
      ]);
      const start = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/pictures/upload', headers: { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
      const picture = await site.deps.db.selectFrom('pictures').select('id').where('caption', '=', name).executeTakeFirstOrThrow();
      for (;;) {
        const row = await site.deps.db.selectFrom('picture_index').select('state').where('picture_id', '=', picture.id).executeTakeFirst();
        if (row?.state === 'done') break;
        if (performance.now() - start > 120_000) throw new Error('not indexed in 2 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`  ${label.padEnd(34)} ${((performance.now() - start) / 1000).toFixed(1)} s (goal <= 10 s)`);
    }
  } finally {
    await app.close();
    await watching.stop();
    await site.close();
  }
}

/** `embed`: the faces of faces-tuning found by the real indexing child, written to the fixture the tests and `grouping` read. */
async function embed(): Promise<void> {
  console.log(`\nEmbedding the photos of ${TUNING_DIR} with the indexing child`);
  const child = new IndexChild();
  const out: Parameters<typeof writeTuningEmbeddings>[0] = [];
  const start = performance.now();
  try {
    for (const photo of tuningPhotos()) {
      const answer = await child.index(path.join(TUNING_DIR, photo.file));
      if (!answer.ok) throw new Error(`${photo.file}: ${answer.error}`);
      out.push({ file: photo.file, person: photo.person, faces: answer.faces.map((f) => ({ box: f.box, score: f.score, embedding: unit(f.embedding) })) });
    }
  } finally {
    await child.close();
  }
  writeTuningEmbeddings(out);
  const faces = out.reduce((n, p) => n + p.faces.length, 0);
  console.log(`  ${out.length} photos, ${faces} faces in ${((performance.now() - start) / 1000).toFixed(1)} s; written to ${TUNING_EMBEDDINGS}`);
}

/** The online centroid as shipped before issue 48: each photo's faces placed in upload order. */
function onlineCentroid(faces: readonly GroupFace[], order: readonly number[], threshold = JOIN_SIMILARITY): number[] {
  const people: Candidate[] = [];
  const out: number[] = new Array<number>(faces.length).fill(-1);
  const byPicture = new Map<number, number[]>();
  faces.forEach((f, i) => byPicture.set(f.picture, [...(byPicture.get(f.picture) ?? []), i]));
  for (const picture of order) {
    const ids = byPicture.get(picture) ?? [];
    const chosen = assignFaces(ids.map((i) => Array.from(faces[i]!.vector)), people, threshold);
    ids.forEach((faceIndex, k) => {
      const id = chosen[k];
      const person = id == null ? undefined : people[id];
      if (person) {
        person.centroid = addToMean(person.centroid, person.faceCount, Array.from(faces[faceIndex]!.vector));
        person.faceCount++;
        out[faceIndex] = person.id;
      } else {
        people.push({ id: people.length, centroid: Array.from(faces[faceIndex]!.vector), faceCount: 1 });
        out[faceIndex] = people.length - 1;
      }
    });
  }
  return out;
}

function shuffled(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let x = seed;
  for (let i = n - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

function synthetic(n: number): GroupFace[] {
  let x = 42;
  const random = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  const people = Math.max(1, Math.round(n / 10));
  const centres = Array.from({ length: people }, () => unit(Array.from({ length: 1024 }, gauss)));
  // Noise of length ~0.8 around a centre: two faces of one person ~0.6 alike, of two people ~0.
  return Array.from({ length: n }, (_, i) => ({ vector: Float32Array.from(unit(centres[i % people]!.map((c) => c + 0.025 * gauss()))), picture: i, fixed: null }));
}

/**
 * "Same person?" answered truthfully from the labels, at most two suggestions per real person, as the
 * server does it: suggestions are pairs of people whose faces are on average >= SUGGEST_SIMILARITY alike
 * (no shared picture, never answered), most alike first; "yes" makes the two one confirmed person, "no"
 * confirms both; then everything is grouped again with the confirmed people as constraints.
 */
function answering(faces: readonly GroupFace[], labels: readonly (string | null)[]): void {
  const budget = 2 * new Set(labels.filter((l) => l !== null)).size;
  let fixed: (number | null)[] = faces.map(() => null);
  let groups = groupFaces(faces);
  const apart = new Set<string>();
  let asked = 0;
  let yes = 0;
  while (asked < budget) {
    const members = new Map<number, number[]>();
    groups.forEach((g, i) => members.set(g, [...(members.get(g) ?? []), i]));
    const list = [...members.entries()].map(([g, ids]) => {
      const mean = new Float64Array(faces[0]!.vector.length);
      for (const i of ids) for (let k = 0; k < mean.length; k++) mean[k]! += faces[i]!.vector[k]! / ids.length;
      const counts = new Map<string, number>();
      for (const i of ids) if (labels[i]) counts.set(labels[i]!, (counts.get(labels[i]!) ?? 0) + 1);
      const label = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
      return { g, ids, mean, label, pictures: new Set(ids.map((i) => faces[i]!.picture)), key: ids[0]! };
    });
    let best: { a: (typeof list)[number]; b: (typeof list)[number]; s: number } | null = null;
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        if (apart.has(`${a.key}:${b.key}`) || [...a.pictures].some((p) => b.pictures.has(p))) continue;
        let s = 0;
        for (let k = 0; k < a.mean.length; k++) s += a.mean[k]! * b.mean[k]!;
        if (s >= SUGGEST_SIMILARITY && (!best || s > best.s)) best = { a, b, s };
      }
    if (!best) break;
    asked++;
    const same = best.a.label !== null && best.a.label === best.b.label;
    // Each side becomes a confirmed person (the id of its first face).
    for (const i of best.a.ids) fixed[i] = best.a.key;
    for (const i of best.b.ids) fixed[i] = same ? best.a.key : best.b.key;
    if (same) yes++;
    else apart.add(`${best.a.key}:${best.b.key}`);
    fixed = [...fixed];
    groups = groupFaces(faces.map((f, i) => ({ ...f, fixed: fixed[i] ?? null })));
  }
  const s = pairwiseScores(groups, labels);
  const made = new Set(groups.filter((_, i) => labels[i] !== null)).size;
  console.log(`  ${`after ${asked} answers (${yes} yes; at most ${budget})`.padEnd(44)} precision ${s.precision.toFixed(2)}  recall ${s.recall.toFixed(2)}  people made ${made} (goal recall >= 0.95)`);
}

async function grouping(): Promise<void> {
  const photos = readTuningEmbeddings();
  const { faces, labels, photoOf } = tuningFaces(photos);
  const labelled = labels.filter((l) => l !== null);
  console.log(`\n4. Grouping ${faces.length} faces of ${photos.length} photos (${labelled.length} labelled, ${new Set(labelled).size} people) of faces-tuning`);
  const line = (label: string, groups: number[], ms: number) => {
    const s = pairwiseScores(groups, labels);
    const made = new Set(groups.filter((_, i) => labels[i] !== null)).size;
    console.log(`  ${label.padEnd(44)} precision ${s.precision.toFixed(2)}  recall ${s.recall.toFixed(2)}  people made ${String(made).padStart(2)} (of labelled faces; ${new Set(groups).size} with every face)  ${ms.toFixed(0)} ms`);
    return s;
  };
  const pictures = photos.map((_, i) => i);
  let start = performance.now();
  line(`online centroid ${JOIN_SIMILARITY} (upload order, as shipped)`, onlineCentroid(faces, pictures), performance.now() - start);
  for (const threshold of [JOIN_SIMILARITY, 0.6]) {
    let precision = 0;
    let recall = 0;
    const runs = 20;
    for (let seed = 1; seed <= runs; seed++) {
      const s = pairwiseScores(onlineCentroid(faces, shuffled(pictures.length, seed), threshold), labels);
      precision += s.precision / runs;
      recall += s.recall / runs;
    }
    console.log(`  ${`online centroid ${threshold}, 20 random orders`.padEnd(44)} precision ${precision.toFixed(2)}  recall ${recall.toFixed(2)}  (means)`);
  }
  for (const threshold of [0.54, 0.56, GROUP_SIMILARITY, 0.58, 0.6]) {
    start = performance.now();
    const groups = groupFaces(faces, { threshold });
    line(`average linkage ${threshold}${threshold === GROUP_SIMILARITY ? ' (shipped)' : ''}`, groups, performance.now() - start);
  }
  // Any order gives the same groups.
  const order = shuffled(faces.length, 7);
  const reordered = groupFaces(order.map((i) => faces[i]!));
  const back = new Array<number>(faces.length);
  order.forEach((i, k) => (back[i] = reordered[k]!));
  line('average linkage, faces in a random order', back, 0);
  const groups = groupFaces(faces);
  const withLabels = new Map<number, Set<string>>();
  groups.forEach((g, i) => {
    const l = labels[i];
    if (l) withLabels.set(g, (withLabels.get(g) ?? new Set()).add(l));
  });
  for (const [p, photo] of photos.entries()) {
    if (photo.person !== null) continue;
    const joined = groups.filter((g, i) => photoOf[i] === p).map((g) => [...(withLabels.get(g) ?? [])].join('+') || 'nobody known');
    console.log(`  group photo ${photo.file}: ${joined.length} faces join ${joined.join(', ')}`);
  }

  answering(faces, labels);

  const n = Number(process.env.BENCH_GROUP_FACES ?? 10_000);
  await regroupingStored(n);
  const quadratic = Math.min(n, Number(process.env.BENCH_GROUP_QUADRATIC_FACES ?? 2_000));
  const some = synthetic(quadratic);
  start = performance.now();
  const pairs = similarPairs(some, GROUP_SIMILARITY).length;
  const pairMs = performance.now() - start;
  console.log(`  for comparison, every face against every face (similarPairs, what a re-grouping did before the pairs were kept): ${quadratic} faces ${(pairMs / 1000).toFixed(1)} s (${pairs} pairs); it grows with the square: ${n} faces about ${((pairMs / 1000) * (n / quadratic) ** 2).toFixed(0)} s`);
}

/**
 * The re-grouping as the worker runs it after a batch (people.regroup.ts regroup, on PGlite): `n`
 * synthetic faces stored, all but the last BATCH already paired with their pairs in face_pairs, the
 * last BATCH just indexed. The stored pairs are found per synthetic person (two people's random
 * 1024-number centres are ~0 alike, so no pair across people reaches the threshold; checked on a
 * sample below), which spares the bench the quadratic pass the server never makes again.
 */
async function regroupingStored(n: number): Promise<void> {
  const BATCH = 10;
  const faces = synthetic(n);
  const people = Math.max(1, Math.round(n / 10));
  const site = await openBenchSite('bench-people-regroup-', { PEOPLE_INDEXING: 'off' });
  try {
    const db = site.deps.db;
    let start = performance.now();
    await sql`
      insert into pictures (stem, file_type, mime, size_bytes, caption, year, month, day, status, uploaded_by, thumb_status)
      select md5(i::text), 'jpg', 'image/jpeg', 1000, '', 2020, 1, 1, 'approved', 1, 'ready'
      from generate_series(1, ${sql.lit(n)}) as i`.execute(db);
    const pictureIds = (await db.selectFrom('pictures').select('id').orderBy('id').execute()).map((r) => r.id);
    const insertFaces = async (from: number, to: number, paired: boolean) => {
      for (let k = from; k < to; k += 200) {
        await db
          .insertInto('faces')
          .values(
            faces.slice(k, Math.min(to, k + 200)).map((f, d) => ({
              picture_id: pictureIds[k + d]!,
              ordinal: 0,
              person_id: null,
              box: [0.1, 0.1, 0.2, 0.2],
              embedding: vectorBytes(f.vector),
              score: 0.9,
              paired,
            })),
          )
          .execute();
      }
    };
    await insertFaces(0, n - BATCH, true);
    const ids = (await db.selectFrom('faces').select('id').orderBy('id').execute()).map((r) => r.id);
    const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      let sum = 0;
      for (let k = 0; k < a.length; k++) sum += a[k]! * b[k]!;
      return sum;
    };
    const stored: { a: number; b: number; similarity: number }[] = [];
    let acrossMax = -1;
    for (let i = 0; i < n - BATCH; i++) {
      for (let j = i + people; j < n - BATCH; j += people) {
        const similarity = dot(faces[i]!.vector, faces[j]!.vector);
        if (similarity >= GROUP_SIMILARITY) stored.push({ a: ids[i]!, b: ids[j]!, similarity });
      }
      // Across people: a sample of pairs, to show none comes near the threshold.
      if (i % 10 === 0) for (let j = i + 1; j < Math.min(n, i + 40); j++) if ((j - i) % people !== 0) acrossMax = Math.max(acrossMax, dot(faces[i]!.vector, faces[j]!.vector));
    }
    for (let k = 0; k < stored.length; k += 1000) await db.insertInto('face_pairs').values(stored.slice(k, k + 1000)).execute();
    await db.updateTable('people_settings').set({ pairs_similarity: GROUP_SIMILARITY }).execute();
    await sql`analyze`.execute(db);
    // The faces grouped once already (timed apart: the first grouping makes every person and moves every face).
    const firstStart = performance.now();
    const first = await regroup(db);
    const firstS = (performance.now() - firstStart) / 1000;
    const setupS = (performance.now() - start) / 1000;
    // A batch arrives: new faces, not yet paired, as the indexing stores them.
    await insertFaces(n - BATCH, n, false);

    // Each step's time, from the previous step's end (the last, writing the result, to the end).
    const steps: string[] = [];
    const timed = () => {
      let last = performance.now();
      return (done?: string) => {
        const now = performance.now();
        steps.push(`${done ?? 'written'} ${((now - last) / 1000).toFixed(1)} s`);
        last = now;
      };
    };
    start = performance.now();
    let step = timed();
    const result = await regroup(db, step);
    step();
    const ms = performance.now() - start;
    const paired = Number((await db.selectFrom('faces').select((eb) => eb.fn.countAll<string>().as('n')).where('paired', '=', true).executeTakeFirstOrThrow()).n);
    console.log(
      `  ${n} synthetic faces (${people} people) on PGlite, ${n - BATCH} grouped with their pairs stored (${stored.length}; across people at most ${acrossMax.toFixed(2)} alike in a sample; ${first.people} people), then ${BATCH} new: re-grouped in ${(ms / 1000).toFixed(1)} s (goal < 10 s), ${result.people} people, ${result.moved} faces placed, ${paired} paired (setup ${setupS.toFixed(0)} s, of which the first re-grouping, which moves every face, ${firstS.toFixed(1)} s)`,
    );
    console.log(`    steps: ${steps.splice(0).join(', ')}`);
    start = performance.now();
    step = timed();
    const again = await regroup(db, step);
    step();
    console.log(`  again with nothing new: ${((performance.now() - start) / 1000).toFixed(1)} s, ${again.moved} faces moved`);
    console.log(`    steps: ${steps.join(', ')}`);
  } finally {
    await site.close();
  }
}

if (process.argv.includes('--serve-people-gallery')) await serveGalleryWithBacklog();
else {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const run = (name: string) => wanted.length === 0 || wanted.includes(name);
  if (run('index')) await indexing();
  if (run('gallery')) await galleryDuringBacklog();
  if (run('latency')) await approvalToIndexed();
  if (wanted.includes('embed')) await embed();
  if (run('grouping')) await grouping();
}
