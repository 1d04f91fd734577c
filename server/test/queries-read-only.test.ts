import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { procedures, type ProcedurePath } from '@site/contracts';
import type { Database } from '../src/db/database.ts';
import { createContextInner } from '../src/trpc/context.ts';
import { findProcedure, invoke } from '../src/trpc/invoke.ts';
import { samples } from './area-tables.ts';
import { createUser, databases, useTestServer } from './helpers.ts';

/**
 * No query may change state: tRPC serves queries over GET, and a cross-site top-level GET (a link, a
 * redirect) carries the SameSite=Lax session cookie, so whatever a query does, any other site can make
 * a member's browser do. Every query runs here, as the owner, with its sample input; the database must
 * be exactly as it was.
 */
const queries = (Object.keys(procedures) as ProcedurePath[]).filter((path) => findProcedure(path)?._def.type === 'query');

async function snapshot(db: Database): Promise<Record<string, unknown[]>> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema() order by tablename`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { tablename } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(tablename)}`.execute(db);
    out[tablename] = rows.rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe('the procedures that are queries', () => {
  it('are a known, non-empty set (a mutation that reads only is fine; a query that writes is not)', () => {
    expect(queries.length).toBeGreaterThan(10);
    expect(queries).not.toContain('tradeGame.resources');
    expect(queries).not.toContain('ytdl.info');
  });
});

describe.each(databases)('no query changes state (%s)', (kind) => {
  const s = useTestServer(kind);

  it.each(queries)('%s leaves the database as it was', async (path) => {
    const owner = await createUser(s.deps, 'owner', 3);
    const before = await snapshot(s.db);
    const ctx = createContextInner(s.deps, { user: owner, port: () => 8443 });
    await invoke(path, ctx, samples[path]).catch(() => undefined);
    expect(await snapshot(s.db)).toEqual(before);
  });
});
