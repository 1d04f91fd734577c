import type { Generated, Selectable } from 'kysely';

/** A person: the faces clustered together, with the name members gave them (null until named). */
export interface PeopleTable {
  id: Generated<number>;
  name: string | null;
  hidden: Generated<boolean>;
  /** Who gave the person their name (null: unnamed, or named before this was kept, or that account gone). */
  named_by: number | null;
  /** A member decided about this person (named, merged, answered, gave a face): the re-grouping keeps it whole. */
  confirmed: Generated<boolean>;
  /** The running mean of the embeddings of its faces (unit length each): new faces are compared with it. Float32 little-endian bytes (people.vectors.ts). */
  centroid: Uint8Array;
  /** How many faces the centroid is the mean of (faces a member took out are not counted). */
  face_count: Generated<number>;
  created_at: Generated<Date>;
}

/** A face found in a picture: where (fractions of the picture's size), how sure, and its embedding. */
export interface FacesTable {
  id: Generated<number>;
  picture_id: number;
  /** The n-th face the detector found in the picture: (picture_id, ordinal) is unique, so a face is never stored twice. */
  ordinal: number;
  person_id: number | null;
  /** [x, y, w, h] as fractions (0..1) of the picture's width and height. */
  box: number[];
  /** 1024 numbers, unit length (the face description model's output, normalised), as Float32 little-endian bytes (people.vectors.ts). */
  embedding: Uint8Array;
  score: number;
  /** A member took this face out of its person: it never joins anyone again by itself. */
  removed: Generated<boolean>;
  /** Its similar pairs with every face stored before it are in face_pairs (the re-grouping finds them once). */
  paired: Generated<boolean>;
}

/** Two faces (a < b) at least people_settings.pairs_similarity alike: what the re-grouping joins from. */
export interface FacePairsTable {
  a: number;
  b: number;
  similarity: number;
}

/** A thing in a picture: the detector's label (with its confidence) or a member's own tag. */
export interface PictureTagsTable {
  id: Generated<number>;
  picture_id: number;
  tag: string;
  confidence: number | null;
  added_by: number | null;
  source: 'model' | 'member';
  created_at: Generated<Date>;
}

/**
 * The indexing queue and its state: one row per approved picture (a trigger adds it at approval, the
 * migration added the backlog). 'pending' until the indexing child has read it, then 'done' (or
 * 'failed' after its attempts); claimed with a lease like the thumbnail jobs.
 */
export interface PictureIndexTable {
  picture_id: number;
  state: Generated<'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  run_after: Generated<Date>;
  locked_until: Date | null;
  last_error: string | null;
  indexed_at: Date | null;
}

/** The site-wide switch (one row): people on or off. */
export interface PeopleSettingsTable {
  id: Generated<boolean>;
  enabled: Generated<boolean>;
  /** The similarity face_pairs holds pairs from (null: none found yet); a lower grouping threshold finds them again. */
  pairs_similarity: number | null;
}

/** Two people a member said are not the same (a < b): never suggested again, never grouped together. */
export interface PeopleApartTable {
  a: number;
  b: number;
}

export interface PeopleTables {
  people_apart: PeopleApartTable;
  people: PeopleTable;
  faces: FacesTable;
  face_pairs: FacePairsTable;
  picture_tags: PictureTagsTable;
  picture_index: PictureIndexTable;
  people_settings: PeopleSettingsTable;
}

export type PersonRecord = Selectable<PeopleTable>;
export type FaceRecord = Selectable<FacesTable>;
