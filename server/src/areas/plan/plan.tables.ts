import type { Generated, Selectable } from 'kysely';

/** The meals of a day, in order; the owner renames and adds them. `time` is 'HH:MM' in the site's zone. */
export interface PlanMealsTable {
  id: Generated<number>;
  name: string;
  time: string;
  position: number;
}

/** One meal of one day: a recipe (scaled to `servings`) or a free text, and who cooks. */
export interface PlanSlotsTable {
  id: Generated<number>;
  date: string;
  meal_id: number;
  recipe_id: number | null;
  text: string | null;
  cook_id: number | null;
  servings: number | null;
  updated_at: Generated<Date>;
}

export interface PlanTemplatesTable {
  id: Generated<number>;
  name: string;
  created_by: number | null;
  created_at: Generated<Date>;
}

/** A template's slots by weekday (1 Monday .. 7 Sunday). */
export interface PlanTemplateSlotsTable {
  id: Generated<number>;
  template_id: number;
  weekday: number;
  meal_id: number;
  recipe_id: number | null;
  text: string | null;
  cook_id: number | null;
  servings: number | null;
}

/**
 * What "Shop for the week" already put on To Get for a week, per ingredient (lower-case name and
 * recipe unit): a second press adds only what grew since.
 */
export interface PlanShoppedTable {
  week_start: string;
  ingredient: string;
  unit: string;
  quantity: number;
}

export interface ChoresTable {
  id: Generated<number>;
  name: string;
  /** Exactly one of the three schedules is set (a check says so). */
  every_days: number | null;
  /** Weekdays 1 (Monday) to 7, comma separated: '1,4'. */
  weekdays: string | null;
  month_day: number | null;
  who: 'one' | 'turns' | 'anyone';
  /** Position in chore_members of whose turn it is (0 for one member; unused for anyone). */
  turn: number;
  next_date: string;
  points: number;
  created_by: number | null;
  created_at: Generated<Date>;
  /** The last change to it (an edit, Done, Undo): the calendar events' DTSTAMP. */
  updated_at: Generated<Date>;
}

/** The member of a one-person chore, or the members taking turns in order. */
export interface ChoreMembersTable {
  chore_id: number;
  position: number;
  user_id: number;
}

/** Each time a chore was done; Undo deletes the last and puts back the turn and date it moved. */
export interface ChoreDoneTable {
  id: Generated<number>;
  chore_id: number;
  user_id: number | null;
  done_at: Date;
  /** The site-zone date it was done on (the points table's month). */
  done_on: string;
  due: string;
  points: number;
  prev_turn: number;
  prev_next: string;
}

/** A member's calendar feed: the SHA-256 of its token only (the address is shown once, when made). */
export interface CalendarFeedsTable {
  user_id: number;
  token_hash: string;
  everyone: Generated<boolean>;
  created_at: Generated<Date>;
  /** The ETag of the feed as last served, and since when it has been that (its Last-Modified). */
  etag: string | null;
  changed_at: Generated<Date>;
  /** A hash of what the feed is made from (its rows' ids and change times, the day, the settings): while it holds, a poll is answered without making the feed. */
  fingerprint: string | null;
}

export interface PlanTables {
  plan_meals: PlanMealsTable;
  plan_slots: PlanSlotsTable;
  plan_templates: PlanTemplatesTable;
  plan_template_slots: PlanTemplateSlotsTable;
  plan_shopped: PlanShoppedTable;
  chores: ChoresTable;
  chore_members: ChoreMembersTable;
  chore_done: ChoreDoneTable;
  calendar_feeds: CalendarFeedsTable;
}

export type ChoreRecord = Selectable<ChoresTable>;
