import type { Generated, Selectable } from 'kysely';

/**
 * One uploaded picture or video. The capture date is three numbers where 0 means unknown ('xx'):
 * ordering newest first by (year, month, day, id) descending then puts an unknown month after the
 * known months of its year, and an unknown year after everything, with one plain b-tree index.
 */
export interface PicturesTable {
  id: Generated<number>;
  /** Server-made: 32 hex characters. The file is `<stem>.<file_type>`, derived files `<stem>.<variant>.webp`. */
  stem: string;
  file_type: string;
  mime: string;
  size_bytes: number;
  caption: string;
  year: number;
  month: number;
  day: number;
  status: 'pending' | 'approved';
  uploaded_by: number | null;
  created_at: Generated<Date>;
  /** 'pending' until the background job ran; 'ready' or 'none' (no thumbnail can be made). */
  thumb_status: Generated<'pending' | 'ready' | 'none'>;
  thumb_width: number | null;
  thumb_height: number | null;
  has_display: Generated<boolean>;
  has_poster: Generated<boolean>;
  /** The program a preview needs that the server lacked when it tried ('ffmpeg'); null otherwise. */
  preview_needs: Generated<string | null>;
  /** The picture declares more pixels than its codec's budget: it was never decoded, it has no preview. */
  preview_too_large: Generated<boolean>;
  /** SHA-256 of the original's bytes (hex): the same bytes are stored once. Null until backfilled. */
  sha256: string | null;
}

/**
 * Approved pictures per capture day (0 = unknown, like the pictures' own date): the gallery's
 * month, year and page-size paging reads this small table instead of counting a large one, and a
 * page's index scan starts at the day its first picture is in. Kept in the same transaction as
 * every change.
 */
export interface PictureDaysTable {
  year: number;
  month: number;
  day: number;
  approved: number;
}

/**
 * The token: its rows together (normally one) change, by triggers, whenever a change may move
 * pictures between pages, so a process can tell whether the layout it keeps in memory is current.
 */
export interface PicturePagingTable {
  token: string;
}

/** The background queue: one row per picture whose derived files are still to be made. */
export interface PictureJobsTable {
  id: Generated<number>;
  picture_id: number;
  attempts: Generated<number>;
  run_after: Generated<Date>;
  locked_until: Date | null;
  last_error: string | null;
}

/**
 * Whose turn it is in the picture queue: one row per one who queues (`user:<id>` for a member,
 * `link:<id>` for the guests of an upload link, `none` for pictures of nobody), with when the queue
 * last took one of their jobs and the decoder time their jobs used since `window_started`.
 */
export interface PictureQueueTurnsTable {
  owner: string;
  served_at: Date;
  work_ms: number;
  window_started: Date;
}

/** A member's heart on a picture: one per member and picture (the primary key), gone with either. */
export interface PictureHeartsTable {
  picture_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

/** A member's comment under a picture, gone with the picture or the account. */
export interface PictureCommentsTable {
  id: Generated<number>;
  picture_id: number;
  user_id: number;
  text: string;
  created_at: Generated<Date>;
  edited_at: Date | null;
}

/**
 * Where a picture was taken (pictures.places.ts): one row per picture whose file was read, null
 * columns when it holds no position (so the backlog pass reads each file once). `town` and
 * `country` are null for a position far from every town.
 */
export interface PicturePlacesTable {
  picture_id: number;
  lat: number | null;
  lon: number | null;
  town: string | null;
  country: string | null;
  /** lower(site_fold(town)) and of country, kept by a trigger: what suggestions match a prefix against (20261203_pictures_search_fold). */
  town_key: Generated<string | null>;
  country_key: Generated<string | null>;
}

/** A picture's search document (pictures.search-sources.ts), kept by triggers. */
export interface PictureSearchTable {
  picture_id: number;
  document: string;
  /** Copies of the picture's own (picture_search_refresh): search reads this table alone. */
  year: number;
  month: number;
  day: number;
  status: 'pending' | 'approved';
  uploaded_by: number | null;
}

export interface PicturesTables {
  pictures: PicturesTable;
  picture_days: PictureDaysTable;
  picture_paging: PicturePagingTable;
  picture_jobs: PictureJobsTable;
  picture_queue_turns: PictureQueueTurnsTable;
  picture_hearts: PictureHeartsTable;
  picture_comments: PictureCommentsTable;
  picture_places: PicturePlacesTable;
  picture_search: PictureSearchTable;
}

export type PictureRecord = Selectable<PicturesTable>;
