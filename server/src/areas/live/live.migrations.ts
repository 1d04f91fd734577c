import { sql, type Kysely, type Migration } from 'kysely';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The live feed's triggers (areas/live/change-feed.ts): a write to a live area's tables NOTIFYs
 * `site_changes` at commit with `<area>` (everyone who may read it) or `<area>:<user id>` (rows of one
 * member: the Todo list). PostgreSQL folds equal notifications of one transaction into one.
 * Named after every table it watches, so it runs after they exist.
 */
const changeTriggers: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create function site_notify_change() returns trigger language plpgsql as $$
      declare
        scope text;
      begin
        if tg_nargs > 1 and tg_level = 'ROW' then
          scope := coalesce(to_jsonb(new) ->> tg_argv[1], to_jsonb(old) ->> tg_argv[1]);
          perform pg_notify('site_changes', tg_argv[0] || ':' || scope);
          -- A row moved to another member is a change for both.
          if tg_op = 'UPDATE' and (to_jsonb(old) ->> tg_argv[1]) is distinct from scope then
            perform pg_notify('site_changes', tg_argv[0] || ':' || (to_jsonb(old) ->> tg_argv[1]));
          end if;
        else
          perform pg_notify('site_changes', tg_argv[0]);
        end if;
        return null;
      end $$`.execute(db);
    // Row triggers: a statement that changes no row (a claim that lost its race, a purge with nothing
    // to purge) says nothing, so a read that writes its own cache cannot wake its readers in a loop.
    // TRUNCATE only has statement triggers.
    for (const [table, area] of [
      ['house_tasks', 'house'],
      ['pictures', 'pictures'],
      ['game_servers', 'gameServers'],
    ] as const) {
      await sql`create trigger ${sql.id(`${table}_live`)} after insert or update or delete on ${sql.id(table)}
        for each row execute function site_notify_change(${sql.lit(area)})`.execute(db);
      await sql`create trigger ${sql.id(`${table}_live_truncate`)} after truncate on ${sql.id(table)}
        for each statement execute function site_notify_change(${sql.lit(area)})`.execute(db);
    }
    await sql`create trigger todo_tasks_live after insert or update or delete on todo_tasks
      for each row execute function site_notify_change('todo', 'user_id')`.execute(db);
    // The game servers' status cache is written by every list that finds it older than 30 s (the claim,
    // then the answer): only a change a page shows is news. Ping and the time of the query are not
    // (the page polls for those), or each list would make every open page list again, for ever.
    await sql`create trigger game_server_status_live after update on game_server_status for each row
      when ((old.status, old.players, old.max_players, old.player_names, old.map, old.version, old.online_since)
        is distinct from (new.status, new.players, new.max_players, new.player_names, new.map, new.version, new.online_since))
      execute function site_notify_change('gameServers')`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const [trigger, table] of [
      ['house_tasks_live', 'house_tasks'],
      ['house_tasks_live_truncate', 'house_tasks'],
      ['todo_tasks_live', 'todo_tasks'],
      ['pictures_live', 'pictures'],
      ['pictures_live_truncate', 'pictures'],
      ['game_servers_live', 'game_servers'],
      ['game_servers_live_truncate', 'game_servers'],
      ['game_server_status_live', 'game_server_status'],
    ] as const) {
      await sql`drop trigger ${sql.id(trigger)} on ${sql.id(table)}`.execute(db);
    }
    await sql`drop function site_notify_change()`.execute(db);
  },
};

/** Accounts waiting for approval (admins' count, LIVE_AREAS.accounts): a new account, a level change, a deletion. */
const accountTriggers: Migration = {
  async up(db: Kysely<any>) {
    await sql`create trigger users_live after insert or delete or update of level on users
      for each row execute function site_notify_change('accounts')`.execute(db);
    await sql`create trigger users_live_truncate after truncate on users
      for each statement execute function site_notify_change('accounts')`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists users_live on users`.execute(db);
    await sql`drop trigger if exists users_live_truncate on users`.execute(db);
  },
};

/**
 * A live stream opened with a personal API token (`Authorization: Bearer`) is re-checked when the
 * token is revoked: its row's deletion notifies `site_sessions` with the token's hash, as a session's
 * end does with its own (identity/session-events.ts), so the stream that watches that hash looks again.
 */
const tokenRevocations: Migration = {
  async up(db: Kysely<any>) {
    await sql`create trigger api_tokens_session_change after delete on api_tokens
      for each row execute function site_notify_session_change()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists api_tokens_session_change on api_tokens`.execute(db);
  },
};

/** One's own account (LIVE_AREAS.account): a level change is told to that account alone (`account:<id>`). */
const ownAccount: Migration = {
  async up(db: Kysely<any>) {
    await sql`create trigger users_live_own after update of level on users
      for each row when (old.level is distinct from new.level) execute function site_notify_change('account', 'id')`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger if exists users_live_own on users`.execute(db);
  },
};

export const liveMigrations = {
  '20261127_live_change_triggers': changeTriggers,
  '20261128_live_accounts': accountTriggers,
  '20261127_live_token_revocations': tokenRevocations,
  '20261127_live_own_account': ownAccount,
};
