import type { ColumnType, Generated, Selectable } from 'kysely';

/** bigint comes back as a string (pg) or a bigint (PGlite); it is always written as a number. */
type Int8 = ColumnType<string | number | bigint, number, number>;

export interface CharityEntriesTable {
  id: Generated<number>;
  charitable: boolean;
  recipient: string;
  item: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** The year of `date`, for the year filter and its index. */
  year: number;
  /** Exact integer cents; null when no value was given. */
  value_cents: Int8 | null;
  /** The media key of the documentation file, its type told from its bytes, and its size. */
  documentation_key: string | null;
  documentation_type: string | null;
  documentation_size: number | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface FinanceTables {
  charity_entries: CharityEntriesTable;
}

export type CharityEntryRecord = Selectable<CharityEntriesTable>;
