import { sql, type Kysely, type Migration } from 'kysely';
import { DEFAULT_MEALS } from '@site/contracts';

// Typed on Kysely<any> on purpose: a migration must keep compiling whatever today's schema says.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Breakfast, Lunch and Dinner, when no meals are named yet (tests call it after emptying every table). */
export async function insertDefaultMeals(db: Kysely<any>): Promise<void> {
  const existing = await db.selectFrom('plan_meals').select('id').limit(1).execute();
  if (existing.length > 0) return;
  await db.insertInto('plan_meals').values(DEFAULT_MEALS.map((meal, position) => ({ ...meal, position }))).execute();
}

const DATE = sql`~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;

/** Issue 39: the meal plan, its templates, what a week's shopping already added, chores and calendar feeds. */
const planTables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('plan_meals')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('time', 'text', (c) => c.notNull().check(sql`time ~ '^[0-2][0-9]:[0-5][0-9]$'`))
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute();
    await insertDefaultMeals(db);
    const slotColumns = (t: any) =>
      t
        .addColumn('meal_id', 'integer', (c: any) => c.notNull().references('plan_meals.id').onDelete('cascade'))
        .addColumn('recipe_id', 'integer', (c: any) => c.references('recipes.id').onDelete('set null'))
        .addColumn('text', 'text')
        .addColumn('cook_id', 'integer', (c: any) => c.references('users.id').onDelete('set null'))
        .addColumn('servings', 'integer', (c: any) => c.check(sql`servings between 1 and 1000`));
    await slotColumns(
      db.schema
        .createTable('plan_slots')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('date', 'text', (c) => c.notNull().check(sql`date ${DATE}`)),
    )
      .addColumn('updated_at', 'timestamptz', (c: any) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('plan_slots_date_meal', ['date', 'meal_id'])
      .execute();
    await db.schema
      .createTable('plan_templates')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await slotColumns(
      db.schema
        .createTable('plan_template_slots')
        .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('template_id', 'integer', (c) => c.notNull().references('plan_templates.id').onDelete('cascade'))
        .addColumn('weekday', 'integer', (c) => c.notNull().check(sql`weekday between 1 and 7`)),
    ).execute();
    await db.schema.createIndex('plan_template_slots_template').on('plan_template_slots').column('template_id').execute();
    await db.schema
      .createTable('plan_shopped')
      .addColumn('week_start', 'text', (c) => c.notNull().check(sql`week_start ${DATE}`))
      .addColumn('ingredient', 'text', (c) => c.notNull())
      .addColumn('unit', 'text', (c) => c.notNull())
      .addColumn('quantity', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('plan_shopped_pkey', ['week_start', 'ingredient', 'unit'])
      .execute();

    await db.schema
      .createTable('chores')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('every_days', 'integer', (c) => c.check(sql`every_days between 1 and 365`))
      .addColumn('weekdays', 'text', (c) => c.check(sql`weekdays ~ '^[1-7](,[1-7]){0,6}$'`))
      .addColumn('month_day', 'integer', (c) => c.check(sql`month_day between 1 and 31`))
      .addColumn('who', 'text', (c) => c.notNull().check(sql`who in ('one', 'turns', 'anyone')`))
      .addColumn('turn', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_date', 'text', (c) => c.notNull().check(sql`next_date ${DATE}`))
      .addColumn('points', 'integer', (c) => c.notNull().check(sql`points between 1 and 100`))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint('chores_one_schedule', sql`num_nonnulls(every_days, weekdays, month_day) = 1`)
      .execute();
    await db.schema
      .createTable('chore_members')
      .addColumn('chore_id', 'integer', (c) => c.notNull().references('chores.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('chore_members_pkey', ['chore_id', 'position'])
      .execute();
    await db.schema
      .createTable('chore_done')
      .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('chore_id', 'integer', (c) => c.notNull().references('chores.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('done_at', 'timestamptz', (c) => c.notNull())
      .addColumn('done_on', 'text', (c) => c.notNull().check(sql`done_on ${DATE}`))
      .addColumn('due', 'text', (c) => c.notNull().check(sql`due ${DATE}`))
      .addColumn('points', 'integer', (c) => c.notNull())
      .addColumn('prev_turn', 'integer', (c) => c.notNull())
      .addColumn('prev_next', 'text', (c) => c.notNull().check(sql`prev_next ${DATE}`))
      .execute();
    await db.schema.createIndex('chore_done_chore').on('chore_done').columns(['chore_id', 'id']).execute();
    await db.schema.createIndex('chore_done_on').on('chore_done').column('done_on').execute();
    await db.schema
      .createTable('calendar_feeds')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('everyone', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('etag', 'text')
      .addColumn('fingerprint', 'text')
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    // The live feed (areas/live): open plan and chores pages read again when these change.
    for (const [table, area] of [
      ['plan_meals', 'plan'],
      ['plan_slots', 'plan'],
      ['chores', 'chores'],
      ['chore_members', 'chores'],
      ['chore_done', 'chores'],
    ] as const) {
      await sql`create trigger ${sql.id(`${table}_live`)} after insert or update or delete on ${sql.id(table)}
        for each row execute function site_notify_change(${sql.lit(area)})`.execute(db);
      await sql`create trigger ${sql.id(`${table}_live_truncate`)} after truncate on ${sql.id(table)}
        for each statement execute function site_notify_change(${sql.lit(area)})`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    for (const table of ['calendar_feeds', 'chore_done', 'chore_members', 'chores', 'plan_shopped', 'plan_template_slots', 'plan_templates', 'plan_slots', 'plan_meals']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

export const planMigrations = { '20261127_plan_tables': planTables };
