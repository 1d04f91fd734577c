/**
 * Clustering faces into people, online, as each picture's faces arrive: a face joins the person
 * whose centroid (the mean of their faces' unit embeddings) it is most similar to, by cosine
 * similarity, when that similarity is at least JOIN_SIMILARITY; otherwise it starts a new person.
 * Two faces of one picture are never one person (a person already given a face of the picture is
 * not a candidate for its other faces).
 *
 * The threshold, from measurement (docs/pictures.md; the face description model of
 * @vladmandic/human 3.3, 1024 numbers, pictures read at 1024 px): over 34 faces of 5 real group
 * photographs of different people, the most similar two different people were 0.64; the same face
 * framed and scaled differently (a portrait cut from a group photo) 0.92-0.98; the one pair that looks
 * like the same woman on two different days 0.66. 0.72 keeps different people apart with a margin,
 * at the price of sometimes starting a second person for someone a member then merges by hand.
 */
export const JOIN_SIMILARITY = 0.72;

export function unit(vector: readonly number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((v) => v / norm);
}

/** Cosine similarity of a unit vector and any vector (a centroid is a mean of unit vectors, shorter than one). */
export function similarity(unitFace: readonly number[], centroid: ArrayLike<number>): number {
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < unitFace.length; i++) {
    const c = centroid[i] ?? 0;
    dot += (unitFace[i] ?? 0) * c;
    norm += c * c;
  }
  return norm === 0 ? 0 : dot / Math.sqrt(norm);
}

/** The mean of `count` vectors whose mean was `centroid`, with `face` added. */
export function addToMean(centroid: ArrayLike<number>, count: number, face: readonly number[]): number[] {
  return face.map((v, i) => ((centroid[i] ?? 0) * count + v) / (count + 1));
}

export function meanOf(vectors: readonly ArrayLike<number>[]): number[] {
  const first = vectors[0];
  if (!first) return [];
  const out = new Array<number>(first.length).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (v[i] ?? 0) / vectors.length;
  return out;
}

export type Candidate = { id: number; centroid: ArrayLike<number>; faceCount: number };

/**
 * Who each of one picture's faces is: an existing person's id, or null for a new person. Faces are
 * placed best match first, so the clearest resemblance wins when two faces want the same person.
 */
export function assignFaces(faces: readonly number[][], people: readonly Candidate[], threshold = JOIN_SIMILARITY): (number | null)[] {
  const pairs: { face: number; person: number; score: number }[] = [];
  faces.forEach((face, f) => {
    for (const person of people) {
      const score = similarity(face, person.centroid);
      if (score >= threshold) pairs.push({ face: f, person: person.id, score });
    }
  });
  pairs.sort((a, b) => b.score - a.score);
  const out: (number | null)[] = faces.map(() => null);
  const placed = new Set<number>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (placed.has(pair.face) || taken.has(pair.person)) continue;
    out[pair.face] = pair.person;
    placed.add(pair.face);
    taken.add(pair.person);
  }
  return out;
}
