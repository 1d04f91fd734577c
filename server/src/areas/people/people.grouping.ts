/**
 * Re-grouping every face into people at once (issue 48): average-linkage agglomerative clustering on
 * the faces' unit embeddings, with the members' decisions as constraints.
 *
 * Average linkage: two groups join when the mean cosine similarity over all their pairs of faces is at
 * least GROUP_SIMILARITY, best pair first, until no pair of groups is that similar. For unit vectors
 * the mean over pairs is the dot product of the two groups' means, so a group is kept as the sum of its
 * vectors and nothing quadratic is stored; and since a mean is at most its largest term, two groups can
 * only ever reach the threshold if some face of one is at least that similar to some face of the other.
 * So the candidate pairs of groups come from the pairs of faces at or above the threshold (a sparse
 * graph). The server keeps those pairs as faces arrive (face_pairs, people.regroup.ts: each new face
 * compared once with the others, newPairsYielding), so a re-grouping is the merge step alone;
 * similarPairs, every face with every face, is the quadratic step for a set held in memory (the
 * tuning data, the benchmark). docs/pictures.md has the figures measured.
 *
 * Constraints (what members decided never changes):
 * - the faces of a confirmed person (named, merged, answered, or given a face by a member) start as one
 *   group and are never split; two confirmed people are never joined by the grouping (a member does
 *   that: a merge, or "yes" to a suggestion);
 * - two people a member said are not the same are never in one group, nor are two faces of one picture;
 * - faces a member took out of their person are not given to this grouping at all.
 *
 * The threshold, measured on faces-tuning (docs/pictures.md): 0.56-0.58 is where precision stays >= 0.99
 * with recall >= 0.9; 0.54 mixes people, 0.60 splits them.
 */
export const GROUP_SIMILARITY = 0.57;

export type GroupFace = {
  /** Unit-length embedding. */
  vector: ArrayLike<number>;
  /** The picture it is in: two faces of one picture are never one person. */
  picture: number;
  /** The confirmed person it belongs to (kept together, never joined to another confirmed person), or null. */
  fixed: number | null;
};

export type GroupOptions = {
  threshold?: number;
  /** The similar pairs at `threshold`, when the caller found them already (similarPairsYielding). */
  pairs?: readonly [number, number][];
};

type Group = {
  /** The sum of its faces' vectors; null while it is one face (`vector` is that face's: no copy made). */
  sum: Float64Array | null;
  vector: ArrayLike<number>;
  size: number;
  pictures: Set<number>;
  fixed: number | null;
  alive: boolean;
  version: number;
  neighbours: Set<number>;
};

/** Vectors as one Float32Array, row after row (dot products over contiguous memory). */
export type Packed = { data: Float32Array; dim: number };

/** The faces as one Float32Array, row after row. */
export function packed(vectors: readonly ArrayLike<number>[]): Packed {
  // The longest (all are 1024 long; one read as empty because its face went meanwhile is all zeros).
  const dim = vectors.reduce((d, v) => Math.max(d, v.length), 0);
  const data = new Float32Array(vectors.length * dim);
  vectors.forEach((vector, i) => data.set(vector, i * dim));
  return { data, dim };
}

/** The dot product of rows `i` and `j` of packed vectors, four sums at a time. */
function rowDot(data: Float32Array, dim: number, i: number, j: number): number {
  const oi = i * dim;
  const oj = j * dim;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < dim; k += 4) {
    s0 += data[oi + k]! * data[oj + k]!;
    s1 += data[oi + k + 1]! * data[oj + k + 1]!;
    s2 += data[oi + k + 2]! * data[oj + k + 2]!;
    s3 += data[oi + k + 3]! * data[oj + k + 3]!;
  }
  for (; k < dim; k++) s0 += data[oi + k]! * data[oj + k]!;
  return s0 + s1 + s2 + s3;
}

/**
 * Every pair of faces (i < j) whose cosine similarity is at least `threshold`: the one quadratic step,
 * done in blocks so that a block of rows stays in the processor's cache. Yields once per block of rows,
 * so that a caller in the server can let other work run between blocks (similarPairsYielding).
 */
function* pairBlocks(faces: readonly GroupFace[], threshold: number): Generator<[number, number][]> {
  const { data, dim } = packed(faces.map((f) => f.vector));
  const n = faces.length;
  const BLOCK = 64;
  for (let bi = 0; bi < n; bi += BLOCK) {
    const out: [number, number][] = [];
    const iEnd = Math.min(n, bi + BLOCK);
    for (let bj = bi; bj < n; bj += BLOCK) {
      const jEnd = Math.min(n, bj + BLOCK);
      for (let i = bi; i < iEnd; i++) {
        for (let j = Math.max(bj, i + 1); j < jEnd; j++) if (rowDot(data, dim, i, j) >= threshold) out.push([i, j]);
      }
    }
    yield out;
  }
}

export function similarPairs(faces: readonly GroupFace[], threshold: number): [number, number][] {
  return [...pairBlocks(faces, threshold)].flat();
}

/**
 * similarPairs for the server: the event loop runs between blocks of rows, so a re-grouping of many
 * thousand faces (tens of seconds, docs/pictures.md) never holds up requests.
 */
export async function similarPairsYielding(faces: readonly GroupFace[], threshold: number): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (const block of pairBlocks(faces, threshold)) {
    for (const pair of block) out.push(pair);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/**
 * The similar pairs (i < j, with their similarity) that involve at least one of the faces marked new:
 * each new face against every other face, each pair once; what the stored pairs (face_pairs) lack
 * when those faces arrived. N new faces among M cost N x M dot products, not M squared; the event
 * loop runs between blocks of new faces.
 */
export async function newPairsYielding({ data, dim }: Packed, isNew: readonly boolean[], threshold: number): Promise<[number, number, number][]> {
  const n = isNew.length;
  const out: [number, number, number][] = [];
  let sinceYield = 0;
  for (let u = 0; u < n; u++) {
    if (!isNew[u]) continue;
    for (let j = 0; j < n; j++) {
      // A pair of two new faces is found once, from the first of them.
      if (j === u || (isNew[j] && j < u)) continue;
      const similarity = rowDot(data, dim, u, j);
      if (similarity >= threshold) out.push(u < j ? [u, j, similarity] : [j, u, similarity]);
    }
    sinceYield += n;
    if (sinceYield >= 64 * 1024) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return out;
}

/** A max-heap of candidate joins, by similarity. */
class Heap {
  private items: { score: number; a: number; b: number; va: number; vb: number }[] = [];
  get size(): number {
    return this.items.length;
  }
  push(item: { score: number; a: number; b: number; va: number; vb: number }): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (items[p]!.score >= items[i]!.score) break;
      [items[p], items[i]] = [items[i]!, items[p]!];
      i = p;
    }
  }
  pop(): { score: number; a: number; b: number; va: number; vb: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && items[l]!.score > items[m]!.score) m = l;
        if (r < items.length && items[r]!.score > items[m]!.score) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i]!, items[m]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * The dot products of `a` with each of `bs` (groups' sums, or single vectors), `dim` long. Each is
 * summed in order, term after term, so the scores are exactly those of one loop per pair; four are
 * summed side by side, about twice as fast (a single sum waits on each addition).
 */
function dots(a: ArrayLike<number>, bs: readonly ArrayLike<number>[], dim: number): number[] {
  const out: number[] = [];
  let j = 0;
  for (; j + 3 < bs.length; j += 4) {
    const b0 = bs[j]!;
    const b1 = bs[j + 1]!;
    const b2 = bs[j + 2]!;
    const b3 = bs[j + 3]!;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < dim; k++) {
      const x = a[k]!;
      s0 += x * b0[k]!;
      s1 += x * b1[k]!;
      s2 += x * b2[k]!;
      s3 += x * b3[k]!;
    }
    out.push(s0, s1, s2, s3);
  }
  for (; j < bs.length; j++) {
    const b = bs[j]!;
    let s = 0;
    for (let k = 0; k < dim; k++) s += a[k]! * b[k]!;
    out.push(s);
  }
  return out;
}

/**
 * Groups the faces: returns, for each face, the index of its group (0, 1, ... in order of first face).
 * The same faces and constraints give the same groups whatever their order of arrival.
 */
export function groupFaces(faces: readonly GroupFace[], options: GroupOptions = {}): number[] {
  const threshold = options.threshold ?? GROUP_SIMILARITY;
  const dim = faces[0]?.vector.length ?? 0;
  const groups: Group[] = [];
  const groupOf: number[] = [];
  // A group's sum is made when a second face joins it (most faces are alone or join once).
  const add = (group: Group, vector: ArrayLike<number>) => {
    const sum = group.sum;
    if (sum === null) {
      // 0 + first + second, as a sum started at zero would be.
      const made = (group.sum = new Float64Array(dim));
      const first = group.vector;
      for (let k = 0; k < dim; k++) made[k] = first[k]! + vector[k]!;
    } else {
      for (let k = 0; k < dim; k++) sum[k]! += vector[k]!;
    }
  };
  const fixedGroup = new Map<number, number>();
  // A vector shorter than the first is read as ending in zeros.
  const full = (v: ArrayLike<number>): ArrayLike<number> => {
    if (v.length >= dim) return v;
    const out = new Float64Array(dim);
    for (let k = 0; k < v.length; k++) out[k] = v[k]!;
    return out;
  };
  faces.forEach((face, i) => {
    let g = face.fixed === null ? undefined : fixedGroup.get(face.fixed);
    if (g === undefined) {
      g = groups.length;
      groups.push({ sum: null, vector: full(face.vector), size: 1, pictures: new Set([face.picture]), fixed: face.fixed, alive: true, version: 0, neighbours: new Set() });
      if (face.fixed !== null) fixedGroup.set(face.fixed, g);
    } else {
      const group = groups[g]!;
      add(group, full(face.vector));
      group.size++;
      group.pictures.add(face.picture);
    }
    groupOf[i] = g;
  });

  const allowed = (a: Group, b: Group): boolean => {
    // Two confirmed people (and so any two a member said are not the same) stay apart.
    if (a.fixed !== null && b.fixed !== null) return false;
    const [small, large] = a.pictures.size < b.pictures.size ? [a.pictures, b.pictures] : [b.pictures, a.pictures];
    for (const p of small) if (large.has(p)) return false;
    return true;
  };
  // The average similarity of `a` with each of `others`.
  const scores = (a: Group, others: readonly Group[]): number[] =>
    dots(
      a.sum ?? a.vector,
      others.map((b) => b.sum ?? b.vector),
      dim,
    ).map((d, k) => d / (a.size * others[k]!.size));

  const into = groups.map((_, g) => g);
  const heap = new Heap();
  for (const [i, j] of options.pairs ?? similarPairs(faces, threshold)) {
    const a = groupOf[i]!;
    const b = groupOf[j]!;
    if (a === b) continue;
    groups[a]!.neighbours.add(b);
    groups[b]!.neighbours.add(a);
  }
  groups.forEach((group, a) => {
    const later = [...group.neighbours].filter((b) => b > a);
    scores(
      group,
      later.map((b) => groups[b]!),
    ).forEach((s, k) => {
      if (s >= threshold) heap.push({ score: s, a, b: later[k]!, va: 0, vb: 0 });
    });
  });

  // Best join first; an entry made before either group last changed is stale and skipped.
  while (heap.size > 0) {
    const top = heap.pop()!;
    const a = groups[top.a]!;
    const b = groups[top.b]!;
    if (!a.alive || !b.alive || a.version !== top.va || b.version !== top.vb) continue;
    if (!allowed(a, b)) continue;
    // b joins a (a fixed group keeps its person).
    const [keep, gone, keepIndex, goneIndex] = b.fixed !== null ? [b, a, top.b, top.a] : [a, b, top.a, top.b];
    add(keep, gone.sum ?? gone.vector);
    keep.size += gone.size;
    for (const p of gone.pictures) keep.pictures.add(p);
    if (gone.fixed !== null) keep.fixed = gone.fixed;
    gone.alive = false;
    keep.version++;
    for (const n of gone.neighbours) if (n !== keepIndex) keep.neighbours.add(n);
    keep.neighbours.delete(goneIndex);
    const alive: number[] = [];
    for (const n of [...keep.neighbours]) {
      const other = groups[n]!;
      if (!other.alive) {
        keep.neighbours.delete(n);
        continue;
      }
      other.neighbours.delete(goneIndex);
      other.neighbours.add(keepIndex);
      alive.push(n);
    }
    const others = alive.map((n) => groups[n]!);
    scores(keep, others).forEach((s, k) => {
      const other = others[k]!;
      if (s >= threshold && allowed(keep, other)) heap.push({ score: s, a: keepIndex, b: alive[k]!, va: keep.version, vb: other.version });
    });
    into[goneIndex] = keepIndex;
  }
  const root = (g: number): number => {
    while (into[g] !== g) g = into[g] = into[into[g]!]!;
    return g;
  };

  // Number the groups 0, 1, ... by their first face.
  const numbers = new Map<number, number>();
  return groupOf.map((first) => {
    const g = root(first);
    let n = numbers.get(g);
    if (n === undefined) {
      n = numbers.size;
      numbers.set(g, n);
    }
    return n;
  });
}

/** Pairwise precision and recall of a grouping against labels (faces with a null label are left out). */
export function pairwiseScores(groups: readonly number[], labels: readonly (string | null)[]): { precision: number; recall: number; truePairs: number; predictedPairs: number } {
  let both = 0;
  let predicted = 0;
  let truth = 0;
  for (let i = 0; i < groups.length; i++) {
    if (labels[i] == null) continue;
    for (let j = i + 1; j < groups.length; j++) {
      if (labels[j] == null) continue;
      const same = labels[i] === labels[j];
      const together = groups[i] === groups[j];
      if (same) truth++;
      if (together) predicted++;
      if (same && together) both++;
    }
  }
  return { precision: predicted === 0 ? 1 : both / predicted, recall: truth === 0 ? 1 : both / truth, truePairs: truth, predictedPairs: predicted };
}
