import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Two people's ids as people_apart stores them (a < b). */
export const ordered = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

/** Moves the "not the same" answers of people merged into `keep` to it (they hold for the whole person). */
export async function keepApart(trx: Executor, keep: number, others: readonly number[]): Promise<void> {
  if (others.length === 0) return;
  const rows = await trx
    .selectFrom('people_apart')
    .select(['a', 'b'])
    .where((eb) => eb.or([eb('a', 'in', others), eb('b', 'in', others)]))
    .execute();
  for (const row of rows) {
    const other = others.includes(row.a) ? row.b : row.a;
    const partner = others.includes(other) ? keep : other;
    if (partner === keep) continue;
    const [a, b] = ordered(keep, partner);
    await sql`insert into people_apart (a, b) values (${a}, ${b}) on conflict do nothing`.execute(trx);
  }
}
