import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.ts';

/**
 * Every migration, listed by hand: no filesystem globbing, so the esbuild bundle carries them.
 * Names sort in the order they must run; never rename or edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
};
