import { z } from 'zod';

/** The largest id a stored row can have: every table's id is a PostgreSQL `integer` identity column. */
export const MAX_ROW_ID = 2_147_483_647;

export type RowIdMessages = { notNumber: string; notWhole: string; notPositive: string; tooLarge: string };

/**
 * The one schema for an input that names a stored row by its id: a positive whole number a database
 * integer column can hold. A larger number can name no row, and handed to the database it would be
 * refused as out of range (a 500); here it gets the area's own clear message instead.
 */
export function rowId(messages: string | RowIdMessages) {
  const m = typeof messages === 'string' ? { notNumber: messages, notWhole: messages, notPositive: messages, tooLarge: messages } : messages;
  return z
    .number({ error: m.notNumber })
    .int({ error: m.notWhole })
    .positive({ error: m.notPositive })
    .max(MAX_ROW_ID, { error: m.tooLarge });
}
