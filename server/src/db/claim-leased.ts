import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './database.ts';

/**
 * A queue of deliveries kept in a table (push messages, webhook calls): rows with `next_at`,
 * `lease_until`, `attempts`, `delivered_at` and `failed`, each for one target (`group`: a device, a
 * webhook). What it claims and how (the claim of notifications.worker.ts and webhooks.worker.ts).
 */
export interface LeasedClaim {
  /** The deliveries' table; it is `d` in `join` and in the returned columns. */
  table: string;
  /** The column naming a delivery's target: one delivery per target at most, none for a target with one in flight. */
  group: string;
  /** A join that keeps only some candidates (say, of webhooks not paused). */
  join?: RawBuilder<unknown>;
  /** The columns of the claimed rows, read as `claimed` by `select`. */
  returning: string[];
  /** The statement's end: reads `claimed` (joining what a send needs). */
  select: RawBuilder<unknown>;
  limit: number;
  leaseSeconds: number;
}

/**
 * Takes up to `limit` due deliveries for this worker, leased for `leaseSeconds` (so two instances never
 * send the same one), at most one per target and none for a target with a delivery still in flight
 * (a target that answers slowly holds one sending place, not one per event). Attempts are counted.
 */
export async function claimLeased<Row>(db: Executor, claim: LeasedClaim): Promise<Row[]> {
  const table = sql.table(claim.table);
  const group = sql.raw(claim.group);
  const returning = sql.join(claim.returning.map((column) => sql.ref(`d.${column}`)));
  const result = await sql<Row>`
    with candidates as (
      select distinct on (d.${group}) d.id, d.next_at from ${table} d ${claim.join ?? sql``}
      where d.delivered_at is null and d.failed is null and d.next_at <= now() and (d.lease_until is null or d.lease_until < now())
        and not exists (
          select 1 from ${table} o
          where o.${group} = d.${group} and o.delivered_at is null and o.failed is null and o.lease_until >= now())
      order by d.${group}, d.next_at, d.id
    ), due as (
      -- The conditions again: the candidates are read from the statement's snapshot, and a row another
      -- instance claimed and committed since is locked here all the same; FOR UPDATE checks these
      -- against the row as it is now (a delivery sent twice under load, before).
      select id from ${table}
      where id in (select id from candidates order by next_at, id limit ${claim.limit})
        and delivered_at is null and failed is null and (lease_until is null or lease_until < now())
      for update skip locked
    ), claimed as (
      update ${table} d set lease_until = now() + make_interval(secs => ${claim.leaseSeconds}), attempts = d.attempts + 1
      from due where d.id = due.id
      returning ${returning}
    )
    ${claim.select}`.execute(db);
  return result.rows;
}
